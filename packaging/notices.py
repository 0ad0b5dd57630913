#!/usr/bin/env python3
"""Writes THIRD_PARTY_NOTICES.txt: the complete licence text of every
component linked into the library files, each taken from what the
component was built from (the pinned BoringSSL and nghttp2 sources, the
Debian packages whose static archives and headers are linked in, the GCC
that links its runtime in).

    packaging/notices.py           write THIRD_PARTY_NOTICES.txt
    packaging/notices.py --check   exit 1 if it differs from what would be written

Needs packaging/boringssl/fetch.sh, packaging/nghttp2/fetch.sh,
packaging/ngtcp2/build.sh and packaging/nghttp3/build.sh to have run (their
sources' licence files) and the packages of packaging/setup.sh.
"""
import os
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(REPO, "THIRD_PARTY_NOTICES.txt")
DOC = "/usr/share/doc"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def pinned_version(script):
    for line in read(os.path.join(REPO, "packaging", script)).splitlines():
        if line.startswith("VERSION="):
            return line.split("=", 1)[1]
    raise SystemExit("notices.py: no VERSION= in packaging/%s" % script)


def between(text, start, end):
    """The text from the line `start` to just before the line `end`."""
    lines = text.splitlines()
    first = lines.index(start)
    last = lines.index(end, first)
    return "\n".join(lines[first:last]).rstrip() + "\n"


def debian_stanza(text, name):
    """The last `License: name` stanza of a Debian copyright file, as plain
    text (the format's leading space and '.' blank lines undone)."""
    lines = text.splitlines()
    starts = [i for i, l in enumerate(lines) if l == "License: " + name]
    if not starts:
        raise SystemExit("notices.py: no 'License: %s' stanza" % name)
    out = []
    for line in lines[starts[-1] + 1:]:
        if not line.startswith(" "):
            break
        out.append("" if line.strip() == "." else line[1:])
    return "\n".join(out).rstrip() + "\n"


def components():
    boringssl = pinned_version("boringssl/fetch.sh")
    nghttp2 = pinned_version("nghttp2/fetch.sh")
    ngtcp2 = pinned_version("ngtcp2/build.sh")
    nghttp3 = pinned_version("nghttp3/build.sh")
    go_licence = debian_stanza(read(os.path.join(DOC, "golang-1.19-src", "copyright")), "Go")
    # Go's own LICENSE ends where the patent grant (its PATENTS file) begins.
    go_licence = go_licence.split("\nSubject to the terms and conditions of this License")[0].rstrip() + "\n"
    gcc = read(os.path.join(DOC, "gcc-12-base", "copyright"))
    return [
        ("BoringSSL",
         "Debian source package android-platform-external-boringssl %s, with the patches in "
         "packaging/boringssl/patches/, built by packaging/boringssl/build.sh. Its LICENSE file:" % boringssl,
         read(os.path.join(REPO, "build-boringssl", "orig", "src", "LICENSE"))),
        ("nghttp2",
         "Debian source package nghttp2 %s, with Debian's patches, built by packaging/nghttp2/build.sh. "
         "Its COPYING file:" % nghttp2,
         read(os.path.join(REPO, "build-nghttp2", "src", "COPYING"))),
        ("ngtcp2 (for HTTP/3)",
         "Debian source package ngtcp2 %s, with its BoringSSL crypto backend and the patches in "
         "packaging/ngtcp2/patches/, built by packaging/ngtcp2/build.sh. Its COPYING file:" % ngtcp2,
         read(os.path.join(REPO, "build-ngtcp2", "src", "ngtcp2", "COPYING"))),
        ("nghttp3 (for HTTP/3)",
         "Debian source package nghttp3 %s, with the patches in packaging/nghttp3/patches/, built by "
         "packaging/nghttp3/build.sh. Its COPYING file:" % nghttp3,
         read(os.path.join(REPO, "build-nghttp3", "src", "nghttp3", "COPYING"))),
        ("c-ares", "Debian package libc-ares-dev (its static archive); for Windows, its source package "
         "c-ares 1.18.1-3, built by packaging/deps/build.sh. Debian's copyright file:",
         read(os.path.join(DOC, "libc-ares-dev", "copyright"))),
        ("zlib", "Debian package zlib1g-dev (its static archive); for Windows, its source package "
         "zlib 1:1.2.13.dfsg-1, built by packaging/deps/build.sh. Debian's copyright file:",
         read(os.path.join(DOC, "zlib1g-dev", "copyright"))),
        ("brotli", "Debian package libbrotli-dev (its static archives); for Windows, its source package "
         "brotli 1.0.9-2, built by packaging/deps/build.sh. Debian's copyright file:",
         read(os.path.join(DOC, "libbrotli-dev", "copyright"))),
        ("zstd", "Debian package libzstd-dev (its static archive); for Windows, its source package "
         "libzstd 1.5.4+dfsg2-5, built by packaging/deps/build.sh. Debian's copyright file:",
         read(os.path.join(DOC, "libzstd-dev", "copyright"))),
        ("nlohmann/json", "Debian package nlohmann-json3-dev (header-only, compiled in). Debian's copyright file:",
         read(os.path.join(DOC, "nlohmann-json3-dev", "copyright"))),
        ("Character set tables (src/charset/tables.cc)",
         "Generated from golang.org/x/text v0.32.0 (encoding/charmap, japanese, korean, simplifiedchinese, "
         "traditionalchinese), so that bodies convert exactly as tls-client converts them. x/text is under "
         "Go's licence; its text as Debian ships it with Go (golang-1.19-src):",
         go_licence),
        ("GCC runtime (libstdc++, libgcc; not in the macOS files)",
         "Linked in statically (-static-libstdc++ -static-libgcc) by Debian's GCC 12 (for Windows, "
         "Debian's gcc-mingw-w64, GCC 12 too); the macOS files use the OS's own libc++ instead. "
         "GPL version 3 with "
         "the GCC Runtime Library Exception, which permits this. The exception, from Debian's copyright "
         "file for GCC 12 (gcc-12-base), then the GPL version 3 "
         "(/usr/share/common-licenses/GPL-3):",
         between(gcc, "GCC RUNTIME LIBRARY EXCEPTION", "libquadmath/*.[hc]:") + "\n\n" +
         read("/usr/share/common-licenses/GPL-3")),
        ("mingw-w64 runtime and winpthreads (the Windows DLL only)",
         "Linked into the Windows DLL statically (-static) by Debian's mingw-w64 toolchain: the C runtime "
         "start-up code and libwinpthread from Debian package mingw-w64-x86-64-dev. Debian's copyright file, "
         "with the licence of each part:",
         read(os.path.join(DOC, "mingw-w64-x86-64-dev", "copyright"))),
    ]


def render():
    parts = components()
    rule = "=" * 78
    out = [
        "Third-party components linked into the library files",
        rule,
        "",
        "libtls-client.so, and the release files packaging names after upstream's",
        "(Linux x86-64 and arm64, Windows x64 and 32-bit, macOS arm64 and x86-64), link",
        "the components below statically (a section says so where one is not in every",
        "file). Each section has the component's complete licence text, taken from",
        "what it was built from. Written by packaging/notices.py; do not edit by hand.",
        "Build- and test-time only, not in the library files: Catch2 (BSL-1.0).",
        "",
    ]
    for i, (name, _, _) in enumerate(parts, 1):
        out.append("%2d. %s" % (i, name))
    for i, (name, origin, text) in enumerate(parts, 1):
        out += ["", rule, "%d. %s" % (i, name), rule, ""]
        out += wrap(origin)
        out += ["", text.rstrip()]
    return "\n".join(out) + "\n"


def wrap(text, width=78):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    if line:
        lines.append(line)
    return lines


def main():
    text = render()
    if "--check" in sys.argv[1:]:
        current = read(OUT) if os.path.exists(OUT) else ""
        if current != text:
            print("THIRD_PARTY_NOTICES.txt is not what packaging/notices.py writes: run it")
            return 1
        print("THIRD_PARTY_NOTICES.txt: up to date (%d bytes)" % len(text))
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s (%d bytes)" % (OUT, len(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
