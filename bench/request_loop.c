/* The library alone, without a binding: a blocking loop over the ABI's
 * request(), for profiling (perf record) and CPU per request. One session,
 * so the connection is kept alive; every response freed with freeMemory.
 *
 *   cc -O2 -o build/request_loop bench/request_loop.c -ldl
 *   build/request_loop build/libtls-client.so https://127.0.0.1:PORT/body/262144 300
 *
 * The URL's certificate is not checked (insecureSkipVerify): a local test
 * server. Prints the first response's start, then wall time and CPU per
 * request of the process. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef char* (*request_fn)(const char*);
typedef void (*free_fn)(const char*);

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s LIBRARY URL COUNT [forceHttp1: true|false]\n", argv[0]);
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  request_fn request = (request_fn)dlsym(lib, "request");
  free_fn free_memory = (free_fn)dlsym(lib, "freeMemory");
  const int count = atoi(argv[3]);
  char input[2048];
  snprintf(input, sizeof input,
           "{\"sessionId\":\"request-loop\",\"tlsClientIdentifier\":\"chrome_133\",\"requestUrl\":\"%s\","
           "\"requestMethod\":\"GET\",\"insecureSkipVerify\":true,\"forceHttp1\":%s,"
           "\"headers\":{\"accept\":\"*/*\"},\"headerOrder\":[\"accept\"]}",
           argv[2], argc > 4 ? argv[4] : "false");
  struct timespec t0, t1, cpu;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < count; i++) {
    char* r = request(input);
    if (i == 0) printf("%.200s\n", r);
    /* freeMemory takes the response's id */
    char id[64] = {0};
    const char* p = strstr(r, "\"id\":\"");
    if (p) {
      p += 6;
      for (int k = 0; k < 60 && p[k] != '"'; k++) id[k] = p[k];
      free_memory(id);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  printf("%d requests in %.0f ms, CPU %.1f us per request\n", count,
         (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6,
         (cpu.tv_sec * 1e6 + cpu.tv_nsec / 1e3) / count);
  return 0;
}
