"""JA3 and JA4 (TLS over TCP, or QUIC's "q") strings from the decoded parts of a
ClientHello. Shared by the capture server (which decodes the wire) and by
expected.py (which starts from upstream's Go literals)."""
import hashlib


def is_grease(v):
    return isinstance(v, int) and (v & 0x0f0f) == 0x0a0a and (v >> 8) == (v & 0xff)


def _clean(values):
    return [v for v in values if v != "GREASE" and not is_grease(v)]


def ja3(ciphers, extensions, groups, point_formats, legacy_version=0x0303):
    """JA3 with GREASE removed, extensions in the order given."""
    j = lambda vs: "-".join(str(v) for v in _clean(vs))
    return f"{legacy_version},{j(ciphers)},{j(extensions)},{j(groups)},{j(point_formats)}"


def ja4(ciphers, extensions, sigalgs, versions, alpn, legacy_version=0x0303, transport="t"):
    """JA4 (FoxIO's definition); transport "t" for TLS over TCP, "q" for QUIC."""
    names = {0x0304: "13", 0x0303: "12", 0x0302: "11", 0x0301: "10", 0x0300: "s3"}
    vs = _clean(versions)
    version = names.get(max(vs) if vs else legacy_version, "00")
    c, e = _clean(ciphers), _clean(extensions)
    sni = "d" if 0 in e else "i"
    first = alpn[0] if alpn else ""
    a = "00" if not first else (first[0] + first[-1])
    part_a = f"{transport}{version}{sni}{min(len(c), 99):02d}{min(len(e), 99):02d}{a}"
    h = lambda s: hashlib.sha256(s.encode()).hexdigest()[:12]
    part_b = h(",".join(sorted(f"{x:04x}" for x in c))) if c else "000000000000"
    ext_list = ",".join(sorted(f"{x:04x}" for x in e if x not in (0, 16)))
    sig = ",".join(f"{x:04x}" for x in _clean(sigalgs))  # GREASE too (Chrome 152+), as FoxIO's tools
    part_c = h(ext_list + ("_" + sig if sig else "")) if (ext_list or sig) else "000000000000"
    return f"{part_a}_{part_b}_{part_c}"
