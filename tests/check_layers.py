#!/usr/bin/env python3
"""Keeps src/'s includes going down the layers (docs/ARCHITECTURE.md).

    tests/check_layers.py [SRC_DIR]        check; exit 1 and one line per violation
    tests/check_layers.py --self-test      plant violations in a copy of src/ and
                                           check that each one is caught

Rules, read from every #include of every file under src/:
  1. A file of layer L includes headers of L, of layers below L, and of the
     leaf libraries; nothing above L. Leaves include themselves and core only.
  2. OS headers (<unistd.h>, <sys/...>, <winsock2.h>, ...) only in
     src/platform/<os>/.
  3. Third-party headers only where their layer is: BoringSSL in tls/ and
     conn/, nghttp2 in http/h2/, ngtcp2 in conn/quic/, nghttp3 in http/h3/,
     c-ares in net/, nlohmann/json in abi/ and
     profiles/ (the caller's JSON and the profile files), zlib/brotli/zstd in
     codec/ and tls/ (certificate compression), the public header in abi/.
"""
import os
import re
import shutil
import sys
import tempfile

# Top to bottom. A layer may use everything after it in this list.
LAYERS = ["abi", "runtime", "session", "profiles", "http", "conn", "tls", "net", "reactor", "platform", "core"]
LEAVES = ["charset", "codec", "cookies", "sniff", "wire"]

OS_HEADER = re.compile(
    r"^(unistd\.h|fcntl\.h|dirent\.h|poll\.h|pthread\.h|netdb\.h|dlfcn\.h|signal\.h|"
    r"sys/.*|netinet/.*|arpa/.*|windows\.h|winsock2\.h|ws2tcpip\.h|mswsock\.h|mach/.*)$")
THIRD_PARTY = [
    (re.compile(r"^openssl/"), {"tls", "conn"}),
    (re.compile(r"^nghttp2/"), {"http/h2"}),
    (re.compile(r"^ngtcp2/"), {"conn/quic"}),
    (re.compile(r"^nghttp3/"), {"http/h3"}),
    (re.compile(r"^ares"), {"net"}),
    (re.compile(r"^nlohmann/"), {"abi", "profiles"}),
    (re.compile(r"^(zlib\.h|zstd\.h|zstd_errors\.h|brotli/)"), {"codec", "tls"}),
]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def top_folder(rel):
    return rel.split("/", 1)[0]


def rank(folder):
    return LAYERS.index(folder) if folder in LAYERS else None


def allowed(from_folder, to_folder):
    if from_folder == to_folder:
        return True
    if from_folder in LEAVES:
        return to_folder == "core"
    if to_folder in LEAVES:
        return True
    a, b = rank(from_folder), rank(to_folder)
    return a is not None and b is not None and b > a


def check(src):
    problems = []
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".h", ".cc")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            folder = top_folder(rel)
            if folder not in LAYERS and folder not in LEAVES:
                problems.append(f"{rel}: folder {folder}/ is in no layer (add it to tests/check_layers.py and docs/ARCHITECTURE.md)")
                continue
            text = open(path, encoding="utf-8", errors="replace").read()
            for m in INCLUDE.finditer(text):
                kind, inc = m.group(1), m.group(2)
                line = text.count("\n", 0, m.start()) + 1
                where = f"{rel}:{line}"
                if kind == '"':
                    if inc == "tls_client.h":
                        if folder != "abi":
                            problems.append(f"{where}: the public header is the ABI's alone")
                        continue
                    to = top_folder(inc)
                    if "/" not in inc:
                        problems.append(f'{where}: "{inc}" is not a src/-relative path')
                    elif not allowed(folder, to):
                        problems.append(f'{where}: "{inc}" goes up ({folder}/ may not use {to}/)')
                    continue
                if OS_HEADER.match(inc):
                    if not re.match(r"^platform/(linux|posix|darwin|win)/", rel):
                        problems.append(f"{where}: <{inc}> is an OS header; it belongs in src/platform/<os>/")
                    continue
                for pattern, homes in THIRD_PARTY:
                    if pattern.match(inc):
                        sub = "/".join(rel.split("/")[:2])
                        if folder not in homes and sub not in homes:
                            problems.append(f"{where}: <{inc}> belongs to {', '.join(sorted(homes))}")
                        break
    return problems


def self_test(src):
    plants = [
        ("core/error.h", '#include "http/transaction.h"\n', "goes up"),
        ("net/tcp_stream.cc", '#include "conn/chain_builder.h"\n', "goes up"),
        ("cookies/cookie.cc", '#include "wire/header_canon.h"\n', "goes up"),
        ("tls/tls_stream.cc", "#include <unistd.h>\n", "OS header"),
        ("http/transaction.cc", "#include <openssl/ssl.h>\n", "belongs to"),
        ("conn/chain_builder.cc", "#include <ngtcp2/ngtcp2.h>\n", "belongs to"),
        ("session/session.h", '#include "abi/request_input.h"\n', "goes up"),
    ]
    ok = True
    if check(src):
        print("self-test: the tree itself fails; fix that first")
        return False
    for rel, line, expect in plants:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "src")
            shutil.copytree(src, copy)
            path = os.path.join(copy, rel)
            text = open(path).read()
            open(path, "w").write(line + text)
            found = [p for p in check(copy) if p.startswith(rel + ":1:") and expect in p]
            if not found:
                print(f"self-test: planting {line.strip()} in {rel} was not caught")
                ok = False
    print("self-test: " + ("every planted violation caught" if ok else "FAILED"))
    return ok


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "..", "src")
    args = sys.argv[1:]
    if args and args[0] == "--self-test":
        return 0 if self_test(src) else 1
    if args:
        src = args[0]
    problems = check(src)
    for p in problems:
        print(p)
    print(f"layers: {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
