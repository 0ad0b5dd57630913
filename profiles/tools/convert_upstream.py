#!/usr/bin/env python3
"""Writes profiles/<name>.json and profiles/expected/<name>.json for every
profile in upstream tls-client's profiles.MappedTLSClients, read from the
mirrored Go sources (tls-client, utls, fhttp). Python 3 standard library
only; nothing of upstream is copied, its literals are translated.

    profiles/tools/convert_upstream.py \
        --tls-client /work/.mirror/bogdanfinn+tls-client/repo \
        --utls /work/.mirror/bogdanfinn+utls/repo \
        --fhttp /work/.mirror/bogdanfinn+fhttp/repo \
        --out profiles

When upstream has merged profiles the mirror does not hold yet, rebuild
their profiles/ files over the mirror's HEAD in a local clone, commit there,
run the converter on that clone into a scratch directory with
--tls-client-commit naming upstream's commit, and copy only the new files
(every other file would change its comment, nothing else). chrome_150,
chrome_150_PSK (PR #259), chrome_152 and chrome_152_PSK (PR #265) were made
so, from tls-client 296b6bb3b9b6's internal_browser_profiles.go, profiles.go,
extension_data.go and grease.go over a57772fb150c.

Two translations are made from the same parsed Go literals and kept apart
on purpose:
  - profile_tls() writes our schema (SCHEMA.md), which the C++ spec code
    consumes;
  - expected_wire() (expected.py) writes what the ClientHello must carry on
    the wire, straight from the Go extension types, for the capture tests.
A mistranslation in one does not make the other agree with it."""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golit  # noqa: E402
from golit import Call, Func, Lit, Name, Sel, Unary  # noqa: E402
import expected as expected_mod  # noqa: E402

GREASE = "GREASE"


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout


def git_ls(repo, under=""):
    cmd = ["git", "-C", repo, "ls-tree", "--name-only", "HEAD"] + ([under] if under else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [p for p in out.split() if p.endswith(".go") and not p.endswith("_test.go")]


def git_head(repo):
    return subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


_CONST = re.compile(r"^\s*([A-Za-z_]\w*)\s+(?:[\w.]+\s+)?=\s*([^/\n]+?)\s*(?://.*)?$")


def load_consts(repo, files):
    """Name → int for the `Name [Type] = value` lines of Go const/var
    blocks (value a number, another name, or Type(value))."""
    raw = {}
    for f in files:
        for line in git_show(repo, f).splitlines():
            m = _CONST.match(line)
            if m:
                raw.setdefault(m.group(1), m.group(2))
    out = {}

    def resolve(name, depth=0):
        if name in out:
            return out[name]
        if depth > 10 or name not in raw:
            return None
        v = raw[name].strip()
        m = re.fullmatch(r"\w+\((.+)\)", v)
        if m:
            v = m.group(1).strip()
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", v):
            out[name] = int(v, 0)
        elif re.fullmatch(r"\w+", v):
            r = resolve(v, depth + 1)
            if r is not None:
                out[name] = r
        return out.get(name)

    for n in list(raw):
        resolve(n)
    return out


class Upstream:
    def __init__(self, tls_client, utls, fhttp):
        self.tls_client, self.utls_repo = tls_client, utls
        self.ns = {
            "tls": load_consts(utls, git_ls(utls)),
            "dicttls": load_consts(utls, git_ls(utls, "dicttls/")),
            "http2": load_consts(fhttp, git_ls(fhttp, "http2/")),
            "math": {"MaxUint32": 2**32 - 1, "MaxUint16": 2**16 - 1, "MaxInt32": 2**31 - 1},
        }
        self.ns["tls"]["GREASE_PLACEHOLDER"] = 0x0a0a
        self.decls = {"vars": {}, "funcs": {}, "consts": {}}
        for f in git_ls(tls_client, "profiles/"):
            d = golit.parse_file(git_show(tls_client, f))
            self.decls["vars"].update(d["vars"])
            self.decls["funcs"].update(d["funcs"])
            self.decls["consts"].update(d["consts"])
        self._package_values = {}
        self._utls_specs = self._load_utls_specs()
        # Which utls the mirror is, and which one tls-client builds with:
        # built-in ClientHelloIDs come from the former.
        tags = subprocess.run(["git", "-C", utls, "tag", "--points-at", "HEAD"], capture_output=True,
                              text=True).stdout.split()
        self.utls_version = tags[0] if tags else git_head(utls)[:12]
        m = re.search(r"github.com/bogdanfinn/utls (\S+)", git_show(tls_client, "go.mod"))
        self.utls_pinned = m.group(1) if m else "an unknown version"
        self._profiles = {}

    # --- utls built-in ClientHelloIDs -------------------------------------
    def _load_utls_specs(self):
        common = git_show(self.utls_repo, "u_common.go")
        clients = dict(re.findall(r'^\s*(hello\w+)\s*=\s*"([^"]*)"', common, re.M))
        ids = {}
        for name, client, version in re.findall(
                r'^\s*(Hello\w+)\s*=\s*ClientHelloID\{\s*(hello\w+)\s*,\s*\w+\s*,\s*"([^"]*)"', common, re.M):
            ids[name] = f"{clients[client]}-{version}"
        parrots = git_show(self.utls_repo, "u_parrots.go")
        start = parrots.index("func utlsIdToSpec(")
        end = parrots.index("\n}\n", start)
        body = parrots[start:end]
        specs = {}  # Str() → return expression; the first case that names an id wins, as in Go
        for m in re.finditer(r"\n\tcase ([^:]+):\n(.*?)(?=\n\tcase |\n\tdefault:)", body, re.S):
            labels = re.findall(r"(Hello\w+)\.Str\(\)", m.group(1))
            text = m.group(2)
            r = text.find("return ")
            if r < 0:
                continue
            p = golit.Parser(golit.tokenize(text[r + len("return "):]))
            expr = p.parse_expr()
            if "Shuffle" in text[:r + 200] or "ShuffleChromeTLSExtensions" in text:
                expr = ("shuffled", expr)
            for lab in labels:
                if lab in ids:
                    specs.setdefault(ids[lab], expr)
        self._utls_ids = ids
        return specs

    def utls_builtin(self, id_name):
        s = self._utls_ids.get(id_name)
        if s is None or s not in self._utls_specs:
            raise ValueError(f"utls ClientHelloID {id_name} has no spec in u_parrots.go")
        expr = self._utls_specs[s]
        if isinstance(expr, tuple):
            raise ValueError(f"utls {id_name}: spec is shuffled by utls itself (not modelled)")
        return self.eval(expr, {}, "tls"), (f"utls {id_name} ({s}) as the mirrored utls defines it "
                                             f"({self.utls_version}; tls-client pins {self.utls_pinned}, "
                                             "whose built-in specs we could not read)")

    def utls_func(self, name):
        src = git_show(self.utls_repo, "u_ech.go")
        i = src.index(f"func {name}(")
        p = golit.Parser(golit.tokenize(src[i:]))
        p.next()
        p.next()
        p.parse_signature()
        for st in p.parse_block():
            if st[0] == "return":
                return self.eval(st[1][0], {}, "tls")
        raise ValueError(name)

    # --- evaluation -------------------------------------------------------
    def eval(self, e, env, default_ns):
        if isinstance(e, (int, str)) or e is None:
            return e
        if isinstance(e, Unary):
            v = self.eval(e.expr, env, default_ns)
            return -v if e.op == "-" else v
        if isinstance(e, Name):
            parts = e.parts
            if len(parts) == 1:
                n = parts[0]
                if n in env:
                    return env[n]
                if n in ("nil",):
                    return None
                if n in ("true", "false"):
                    return n == "true"
                if n in self.ns[default_ns]:
                    return self.ns[default_ns][n]
                if default_ns == "tls" and n in self._utls_ids:
                    return ("utls_id", n)
                if n in self.decls["consts"] or n in self.decls["vars"]:
                    # tls-client's own package-level data (extension
                    # payloads such as chrome152TrustAnchors).
                    return self.package_value(n)
                return ("name", n)
            if len(parts) == 2:
                pkg, n = parts
                if pkg in self.ns and n in self.ns[pkg]:
                    return self.ns[pkg][n]
                if pkg == "tls" and n in self._utls_ids:
                    return ("utls_id", n)
                return ("name", str(e))
            return ("name", str(e))
        if isinstance(e, Lit):
            typ = e.type.last if isinstance(e.type, Name) else e.type
            is_map = isinstance(typ, str) and typ.startswith("map[")
            key = (lambda k: self.eval(k, env, default_ns)) if is_map else \
                (lambda k: str(k) if isinstance(k, Name) else self.eval(k, env, default_ns))
            return {"_type": typ,
                    "keyed": {key(k): self.eval(v, env, default_ns) for k, v in e.keyed.items()},
                    "elems": [self.eval(x, env, default_ns) for x in e.elems]}
        if isinstance(e, Func):
            return ("func", e, dict(env), default_ns)
        if isinstance(e, Call):
            fn = e.fn
            if isinstance(fn, Name):
                last = fn.last
                if last in ("CurveID", "uint16", "uint8", "uint32", "uint64", "SignatureScheme",
                            "CertCompressionAlgo", "byte"):
                    return self.eval(e.args[0], env, default_ns)
                if last == "BoringGREASEECH":
                    return self.utls_func("BoringGREASEECH")
                if last in TLS_CLIENT_HELPERS:
                    return TLS_CLIENT_HELPERS[last](*[self.eval(a, env, default_ns) for a in e.args])
                if last == "GetClientHelloSpec" and len(fn.parts) == 2:
                    return ("spec_of", fn.parts[0])
                if last == "NewClientProfile":
                    return self.new_client_profile([self.eval(a, env, default_ns) for a in e.args])
                if last in self.decls["funcs"]:
                    return self.run(self.decls["funcs"][last], {}, "tls_client")
            raise ValueError(f"line {e.line}: call {fn} is not modelled")
        if isinstance(e, Sel):
            raise ValueError(f"selector {e.name} is not modelled")
        raise ValueError(f"cannot evaluate {e!r}")

    def run(self, func, env, default_ns):
        env = dict(env)
        for st in func.body:
            if st[0] == "assign":
                env[st[1]] = self.eval(st[2], env, default_ns)
            elif st[0] == "return":
                return self.eval(st[1][0], env, default_ns)
            elif st[0] == "unread":
                raise ValueError(f"line {st[2]}: the value given to {st[1]} is not modelled")
        raise ValueError("function without a return")

    def package_value(self, name):
        if name not in self._package_values:
            expr = self.decls["consts"].get(name, self.decls["vars"].get(name))
            self._package_values[name] = self.eval(expr, {}, "tls")
        return self._package_values[name]

    def new_client_profile(self, a):
        keys = ["clientHelloId", "settings", "settingsOrder", "pseudoHeaderOrder", "connectionFlow",
                "priorities", "headerPriority", "streamID", "allowHTTP", "http3Settings",
                "http3SettingsOrder", "http3PriorityParam", "http3PseudoHeaderOrder", "http3SendGreaseFrames"]
        return {"_type": "ClientProfile", "keyed": dict(zip(keys, a)), "elems": []}

    # --- profiles ---------------------------------------------------------
    def profile_var(self, var):
        if var not in self._profiles:
            expr = self.decls["vars"].get(var)
            if expr is None:
                raise ValueError(f"profile variable {var} not found")
            ns = "tls"
            v = self.eval(expr, {}, ns)
            if isinstance(v, tuple) and v[0] == "func":
                v = self.run(v[1], v[2], v[3])
            self._profiles[var] = v
        return self._profiles[var]

    def spec_of(self, hello_id):
        """A ClientHelloID value → (evaluated ClientHelloSpec literal, source)."""
        if isinstance(hello_id, tuple) and hello_id[0] == "utls_id":
            return self.utls_builtin(hello_id[1])
        if isinstance(hello_id, dict) and hello_id["_type"] == "ClientHelloID":
            f = hello_id["keyed"]["SpecFactory"]
            v = self.run(f[1], f[2], f[3])
            if isinstance(v, tuple) and v[0] == "spec_of":
                other = self.profile_var(v[1])
                spec, src = self.spec_of(other["keyed"]["clientHelloId"])
                return spec, f"{src}, through {v[1]}.GetClientHelloSpec()"
            if isinstance(v, tuple) and v[0] == "utls_id":
                return self.utls_builtin(v[1])
            return v, "tls-client's own spec"
        raise ValueError(f"clientHelloId {hello_id!r} not modelled")

    def mapped_clients(self):
        src = git_show(self.tls_client, "profiles/profiles.go")
        body = src[src.index("var MappedTLSClients"):]
        body = body[:body.index("\n}\n")]
        return re.findall(r'"([^"]+)"\s*:\s*(\w+),', body)

    def default_profile(self):
        src = git_show(self.tls_client, "profiles/profiles.go")
        return re.search(r"var DefaultClientProfile\s*=\s*(\w+)", src).group(1)


# --- tls-client's helpers ---------------------------------------------------
# Functions of tls-client's profiles package that its literals call and whose
# result the Go code draws at random or builds from a capture. Each is named
# here with what its result means; any other call stays "not modelled".
TRUST_ANCHOR_LIST = "TrustAnchorList"


def _grease_signature_scheme():
    # randomGREASESignatureScheme (profiles/grease.go, tls-client PR #265):
    # a GREASE value drawn each time the SpecFactory runs, i.e. once per
    # connection. Written as GREASE_PLACEHOLDER, which the schema writes
    # "GREASE" (a fresh value per connection, BoringSSL patch 0027).
    return 0x0a0a


def _decode_hex(s):
    # mustDecodeHex (profiles/extension_data.go): wire bytes from hex.
    if not isinstance(s, str):
        raise ValueError(f"mustDecodeHex of {s!r}")
    return {"_type": "[]byte", "keyed": {}, "elems": list(bytes.fromhex(s))}


def _split_trust_anchors(capture):
    # mustSplitTrustAnchors (profiles/extension_data.go): a captured
    # RequestedTrustAnchorList (16-bit length, then an 8-bit length and an
    # ID per anchor) split into its IDs, checked as upstream checks it.
    payload = bytes(_decode_hex(capture)["elems"])
    if len(payload) < 2 or int.from_bytes(payload[:2], "big") != len(payload) - 2:
        raise ValueError("trust anchors capture: the length field does not match the list")
    ids, i, body = [], 0, payload[2:]
    while i < len(body):
        end = i + 1 + body[i]
        if body[i] == 0 or end > len(body):
            raise ValueError("trust anchors capture: an empty ID, or one running past the end of the list")
        ids.append(body[i + 1:end])
        i = end
    return {"_type": "TrustAnchorIDs", "ids": ids}


def _shuffle_trust_anchors(records):
    # shuffleTrustAnchors (profiles/extension_data.go): the payload of these
    # IDs in an order drawn once per process (package load), as Chromium's
    # hash-set order. Kept as the IDs, in the capture's order, and that rule.
    if not (isinstance(records, dict) and records.get("_type") == "TrustAnchorIDs"):
        raise ValueError(f"shuffleTrustAnchors of {records!r}")
    return {"_type": TRUST_ANCHOR_LIST, "ids": records["ids"]}


TLS_CLIENT_HELPERS = {
    "randomGREASESignatureScheme": _grease_signature_scheme,
    "mustDecodeHex": _decode_hex,
    "mustSplitTrustAnchors": _split_trust_anchors,
    "shuffleTrustAnchors": _shuffle_trust_anchors,
}


# --- the spec as extension objects -----------------------------------------
# Positional fields of the utls extension types that appear unkeyed.
POSITIONAL = {
    "SupportedCurvesExtension": ["Curves"], "SupportedPointsExtension": ["SupportedPoints"],
    "KeyShareExtension": ["KeyShares"], "PSKKeyExchangeModesExtension": ["Modes"],
    "SupportedVersionsExtension": ["Versions"], "UtlsCompressCertExtension": ["Algorithms"],
    "SignatureAlgorithmsExtension": ["SupportedSignatureAlgorithms"], "ALPNExtension": ["AlpnProtocols"],
    "ApplicationSettingsExtension": ["SupportedProtocols"],
    "ApplicationSettingsExtensionNew": ["SupportedProtocols"], "FakeRecordSizeLimitExtension": ["Limit"],
    "GenericExtension": ["Id", "Data"], "DelegatedCredentialsExtension": ["SupportedSignatureAlgorithms"],
    "RenegotiationInfoExtension": ["Renegotiation"], "SNIExtension": ["ServerName"],
    "UtlsPaddingExtension": ["PaddingLen", "WillPad", "GetPaddingLen"],
    "GREASEEncryptedClientHelloExtension": ["CandidateCipherSuites", "CandidatePayloadLens"],
    "KeyShare": ["Group", "Data"], "HPKESymmetricCipherSuite": ["KdfId", "AeadId"],
}


def fields(lit, typ=None):
    typ = typ or lit["_type"]
    f = dict(lit["keyed"])
    for name, v in zip(POSITIONAL.get(typ, []), lit["elems"]):
        f[name] = v
    return f


def elems(v):
    return [] if v is None else v["elems"]


def normalize_spec(spec):
    """The evaluated ClientHelloSpec literal → {"ciphers", "extensions":
    [(type, fields)]}, with nested literals flattened to plain values."""
    f = fields(spec, "ClientHelloSpec")
    unsupported = set(f) - {"CipherSuites", "CompressionMethods", "Extensions"}
    if unsupported:
        raise ValueError(f"ClientHelloSpec fields not modelled: {sorted(unsupported)}")
    if elems(f.get("CompressionMethods")) not in ([0], []):
        raise ValueError("compression methods other than null")
    exts = []
    for e in elems(f["Extensions"]):
        typ = e["_type"]
        ef = fields(e)
        out = {}
        for k, v in ef.items():
            if isinstance(v, dict) and v.get("_type", "").startswith("[]"):
                inner = v["_type"][2:].split(".")[-1]
                out[k] = [fields(x, inner) if isinstance(x, dict) else x for x in v["elems"]]
            else:
                out[k] = v
        if typ == "KeyShareExtension":
            out["KeyShares"] = [dict(ks, Data=(ks["Data"]["elems"] if isinstance(ks.get("Data"), dict) else ks.get("Data")))
                                for ks in out.get("KeyShares", [])]
        if typ == "GenericExtension" and isinstance(out.get("Data"), dict) and \
                out["Data"].get("_type") != TRUST_ANCHOR_LIST:
            out["Data"] = out["Data"]["elems"]
        exts.append((typ, out))
    return {"ciphers": elems(f["CipherSuites"]), "extensions": exts}


def is_grease(v):
    return isinstance(v, int) and (v & 0x0f0f) == 0x0a0a and (v >> 8) == (v & 0xff)


def cp(v):
    """A code point as the schema writes it."""
    return GREASE if is_grease(v) else f"0x{v:04x}"


# The extension code point of each utls type (fixed ones); the others are
# computed from their fields. The table is expected.py's (a code point is a
# fact of utls, not a translation both sides could get wrong differently).
EXT_ID = {**expected_mod.EXT_ID, "UtlsGREASEExtension": GREASE}


# Key-share groups whose share carries an X25519 public key of its own:
# X25519MLKEM768 and X25519Kyber768Draft00.
HYBRID_X25519_GROUPS = {"0x11ec", "0x6399"}


# Profiles that some real servers refuse, with upstream's library as with
# ours; the bytes stay upstream's (abi/COMPAT.md), the note says so.
REFUSED_BY_SERVERS = {
    "nike_android_mobile": "Refused by OpenSSL servers (illegal_parameter alert): its GREASE key share names "
                           "a group missing from supported_groups; upstream's library fails the same way.",
    "cloudscraper": "Fails against servers that answer encrypt_then_mac (OpenSSL's default): it offers "
                    "the extension, which neither this library nor utls implements; upstream's library "
                    "fails the same way.",
}


# The Sec-WebSocket-Extensions a browser family offers in a WebSocket
# upgrade (upstream's client offers none). The values are the real browsers'
# on this machine (tests/data/browsers/*/websocket_upgrade.txt, Chromium 156
# and Firefox ESR 153), which both have sent since their permessage-deflate
# support began (Chrome 32, Firefox 37). Families without a capture here
# (Safari, OkHttp, the app profiles) offer none, as upstream.
WEBSOCKET_EXTENSIONS = [
    (("chrome_", "brave_", "opera_"), "permessage-deflate; client_max_window_bits"),
    (("firefox_",), "permessage-deflate"),
]


def websocket_block(name):
    for prefixes, extensions in WEBSOCKET_EXTENSIONS:
        if name.startswith(prefixes):
            return {"extensions": extensions}
    return None


# The QUIC layer of a browser family whose profiles have HTTP/3 settings.
# Upstream's Go literals hold only the HTTP/3 SETTINGS: its QUIC Initial is
# quic-go's own, the same for every profile, which no browser sends. So a
# profile takes the QUIC block (version, connection-ID lengths, datagram
# size, transport parameters, the QUIC ClientHello) of the browser captured
# here of its family: Chromium 156 for Chrome and Brave, Firefox ESR 153 for
# Firefox. Both browsers' QUIC hellos changed little between those versions
# (the same transport-parameter set, ALPS codepoint and groups in Chrome 131
# to 156; neqo's set since Firefox 128), and the block is named as borrowed in
# the profile's comment. Without it a profile races nothing (abi/COMPAT.md).
QUIC_FROM_CAPTURE = [
    (("chrome_", "brave_"), "chromium_156"),
    (("firefox_",), "firefox_153"),
]


def quic_block(name, profiles_dir):
    """(block, captured profile name) for a profile of a captured family,
    read from the captured profile's file in profiles_dir; (None, None)
    otherwise."""
    for prefixes, captured in QUIC_FROM_CAPTURE:
        if name.startswith(prefixes):
            with open(os.path.join(profiles_dir, f"{captured}.json")) as f:
                return json.load(f)["http3"]["quic"], captured
    return None, None


def firefox_shares_x25519_key(name, tls):
    """Firefox (NSS) puts one X25519 key in both its X25519MLKEM768 share
    and its x25519 share; utls, and so upstream's firefox_* profiles, make
    two independent keys, which a server can use to tell them from Firefox.
    Our Firefox-family profiles reuse the key, as Firefox does (a deliberate
    difference from upstream, abi/COMPAT.md); Chrome makes two keys, and so
    do its profiles."""
    groups = set(tls.get("key_share_groups", []))
    return name.startswith("firefox_") and "0x001d" in groups and bool(HYBRID_X25519_GROUPS & groups)


def profile_tls(spec):
    """Our schema's "tls" block (SCHEMA.md) from the normalized spec."""
    tls = {"cipher_suites": [cp(c) for c in spec["ciphers"]], "extensions": [],
           "permute_extensions": False}
    raw = {}
    for typ, f in spec["extensions"]:
        if typ == "GenericExtension":
            eid = f["Id"]
            data = f.get("Data")
            if isinstance(data, dict) and data.get("_type") == TRUST_ANCHOR_LIST:
                if eid != 0xca34:
                    raise ValueError(f"a trust anchor list in extension {eid}")
                tls["trust_anchors"] = [i.hex() for i in data["ids"]]
            else:
                raw[str(eid)] = bytes(data or []).hex()
        elif typ in EXT_ID:
            eid = EXT_ID[typ]
        else:
            raise ValueError(f"extension type {typ} not modelled")
        tls["extensions"].append(eid if eid == GREASE else str(eid))
        if typ == "SupportedCurvesExtension":
            tls["supported_groups"] = [cp(c) for c in f.get("Curves", [])]
        elif typ == "KeyShareExtension":
            tls["key_share_groups"] = []
            for ks in f.get("KeyShares", []):
                data = ks.get("Data") or []
                if len(data) > 1:
                    raise ValueError("a key share with fixed key bytes")
                tls["key_share_groups"].append(cp(ks["Group"]))
            tls["share_x25519_key"] = False  # utls makes one key per share
        elif typ == "SupportedPointsExtension":
            tls["point_formats"] = list(f.get("SupportedPoints") or [])
        elif typ == "SignatureAlgorithmsExtension":
            tls["signature_algorithms"] = [cp(s) for s in f.get("SupportedSignatureAlgorithms", [])]
        elif typ == "DelegatedCredentialsExtension":
            tls["delegated_credential_algorithms"] = [cp(s) for s in f.get("SupportedSignatureAlgorithms", [])]
        elif typ == "SupportedVersionsExtension":
            tls["versions"] = [cp(v) for v in f.get("Versions", [])]
        elif typ == "ALPNExtension":
            tls["alpn"] = list(f.get("AlpnProtocols") or [])
        elif typ in ("ApplicationSettingsExtension", "ApplicationSettingsExtensionNew"):
            protos = list(f.get("SupportedProtocols") or [])
            if protos:
                tls["alps"] = protos
            else:  # an empty list is still sent: its body is a zero length
                raw[str(eid)] = "0000"
        elif typ == "UtlsCompressCertExtension":
            tls["cert_compression"] = [cp(a) for a in f.get("Algorithms", [])]
        elif typ == "FakeRecordSizeLimitExtension":
            tls["record_size_limit"] = f["Limit"]
        elif typ == "PSKKeyExchangeModesExtension":
            tls["psk_modes"] = list(f.get("Modes") or [])
        elif typ == "GREASEEncryptedClientHelloExtension":
            tls["ech_grease"] = {
                "cipher_suites": [[cp(s["KdfId"]), cp(s["AeadId"])] for s in f.get("CandidateCipherSuites", [])],
                "payload_lengths": list(f.get("CandidatePayloadLens") or []),
            }
        elif typ == "UtlsPaddingExtension":
            if f.get("GetPaddingLen") != ("name", "tls.BoringPaddingStyle") and \
                    f.get("GetPaddingLen") != ("name", "BoringPaddingStyle"):
                raise ValueError(f"padding rule {f.get('GetPaddingLen')} not modelled")
        elif typ == "SNIExtension" and f.get("ServerName"):
            raise ValueError("a fixed server name")
    if raw:
        tls["raw_extensions"] = raw
    return tls


# --- HTTP/2 and HTTP/3 -----------------------------------------------------
H2_NAMES = {1: "HEADER_TABLE_SIZE", 2: "ENABLE_PUSH", 3: "MAX_CONCURRENT_STREAMS",
            4: "INITIAL_WINDOW_SIZE", 5: "MAX_FRAME_SIZE", 6: "MAX_HEADER_LIST_SIZE",
            7: "UNKNOWN_SETTING_7", 8: "UNKNOWN_SETTING_8", 9: "UNKNOWN_SETTING_9"}


def as_map(v):
    if v is None:
        return None
    return {k: val for k, val in v["keyed"].items()} if isinstance(v, dict) else v


def priority(p):
    f = fields(p, "PriorityParam") if p else {}
    return {"depends_on": f.get("StreamDep", 0), "exclusive": bool(f.get("Exclusive", False)),
            "weight": f.get("Weight", 0) + 1}


def http_blocks(prof, notes):
    k = prof["keyed"]
    h2 = {}
    settings = as_map(k.get("settings"))
    order = elems(k.get("settingsOrder"))
    if settings is not None:
        # fhttp writes the order's ids with the map's values (a Go map lookup:
        # 0 for an id the map lacks).
        h2["settings"] = [[H2_NAMES.get(i, f"0x{i:x}"), settings.get(i, 0)] for i in order]
        missing = [i for i in order if i not in settings]
        if missing:
            notes.append(f"http2: settings order names {missing} without a value (sent as 0, as fhttp does)")
        extra = [i for i in settings if i not in order]
        if extra:
            notes.append(f"http2: settings {extra} have values but are not in the order (not sent, as fhttp)")
    else:
        notes.append("http2: no settings in upstream's profile (tls-client then sends its own default map "
                     "in Go map order)")
    # fhttp's defaults spelled out where upstream leaves a field unset
    # (SCHEMA.md): a 15663105 connection WINDOW_UPDATE, and HEADERS
    # priority exclusive on stream 0 with weight 256 (Weight 255).
    h2["connection_flow"] = k.get("connectionFlow") or 15663105
    h2["priority_frames"] = []
    for p in elems(k.get("priorities")):
        pf = fields(p, "Priority")
        pr = priority(pf.get("PriorityParam"))
        h2["priority_frames"].append({"stream_id": pf.get("StreamID", 0), **pr})
    hp = k.get("headerPriority")
    h2["header_priority"] = {"depends_on": 0, "exclusive": True, "weight": 256} if hp is None else priority(hp)
    pho = k.get("pseudoHeaderOrder")
    h2["pseudo_header_order"] = elems(pho) if pho is not None else []
    if pho is None:
        notes.append("http2: no pseudo-header order in upstream's profile")
    h2["stream_id"] = k.get("streamID") or 0
    h3 = None
    h3s, h3o = as_map(k.get("http3Settings")), elems(k.get("http3SettingsOrder"))
    if h3s or h3o or k.get("http3PseudoHeaderOrder") is not None or k.get("http3PriorityParam") or \
            k.get("http3SendGreaseFrames"):
        h3s = h3s or {}
        # tls-client keeps, in its order, the ids its map has a value for.
        ids = h3o if h3o else list(h3s)
        h3 = {"settings": [[f"0x{i:x}", h3s[i]] for i in ids if i in h3s]}
        if h3o and any(i not in h3s for i in h3o):
            h3["settings_order"] = [f"0x{i:x}" for i in h3o]
        h3["priority_param"] = k.get("http3PriorityParam") or 0
        h3["pseudo_header_order"] = elems(k.get("http3PseudoHeaderOrder"))
        h3["send_grease_frames"] = bool(k.get("http3SendGreaseFrames"))
    return h2, h3, bool(k.get("allowHTTP"))


def expected_http2(prof):
    """What a fingerprinting server sees of upstream's HTTP/2 for a profile,
    straight from the Go literal (not from the http2 block written above):
    the Akamai string, the HEADERS priority (None: no PRIORITY flag) and
    the first request's stream id, by fhttp's rules."""
    k = prof["keyed"]
    settings = as_map(k.get("settings")) or {}
    akamai_settings = ";".join(f"{i}:{settings.get(i, 0)}" for i in elems(k.get("settingsOrder")))
    flow = k.get("connectionFlow") or 15663105  # fhttp's transportDefaultConnFlow
    frames = []
    last_priority_stream = None
    for p in elems(k.get("priorities")):
        pf = fields(p, "Priority")
        pp = fields(pf.get("PriorityParam"), "PriorityParam") if pf.get("PriorityParam") else {}
        frames.append(f"{pf.get('StreamID', 0)}:{1 if pp.get('Exclusive') else 0}:"
                      f"{pp.get('StreamDep', 0)}:{pp.get('Weight', 0) + 1}")
        last_priority_stream = pf.get("StreamID", 0)
    pho = k.get("pseudoHeaderOrder")
    pseudo = elems(pho) if pho is not None else [":authority", ":method", ":path", ":scheme"]
    akamai = f"{akamai_settings}|{flow}|{','.join(frames) or '0'}|{','.join(p[1] for p in pseudo)}"
    hp = k.get("headerPriority")
    if hp is None:
        header_priority = {"depends_on": 0, "exclusive": True, "weight": 256}
    else:
        f = fields(hp, "PriorityParam")
        zero = not f.get("StreamDep") and not f.get("Exclusive") and not f.get("Weight")
        header_priority = None if zero else {"depends_on": f.get("StreamDep", 0),
                                             "exclusive": bool(f.get("Exclusive")),
                                             "weight": f.get("Weight", 0) + 1}
    first = 3 if k.get("allowHTTP") else 1
    if k.get("streamID"):
        first = k.get("streamID")
    if last_priority_stream is not None:
        first = last_priority_stream + 2
    return {"akamai": akamai, "header_priority": header_priority, "first_stream_id": first}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tls-client", required=True)
    ap.add_argument("--utls", required=True)
    ap.add_argument("--fhttp", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sni", default="localhost", help="server name the capture tests use")
    ap.add_argument("--tls-client-commit", metavar="SHA",
                    help="the upstream commit whose profiles/ files the --tls-client tree's HEAD holds, when "
                         "that HEAD is a local commit rebuilding them (the mirror lacks the commit); "
                         "named in the comments instead of HEAD")
    args = ap.parse_args()
    up = Upstream(args.tls_client, args.utls, args.fhttp)
    heads = {"tls-client": args.tls_client_commit or git_head(args.tls_client), "utls": git_head(args.utls),
             "fhttp": git_head(args.fhttp)}
    by_var = {}
    for ident, var in up.mapped_clients():
        by_var.setdefault(var, []).append(ident)
    # A profile file is named after the first identifier that maps to it;
    # the others are its aliases.
    os.makedirs(os.path.join(args.out, "expected"), exist_ok=True)
    failures = []
    for var, idents in by_var.items():
        name = idents[0]
        try:
            prof = up.profile_var(var)
            spec_lit, source = up.spec_of(prof["keyed"]["clientHelloId"])
            spec = normalize_spec(spec_lit)
            notes = []
            h2, h3, allow_http = http_blocks(prof, notes)
            doc = {"name": name}
            if idents[1:]:
                doc["aliases"] = idents[1:]
            doc["comment"] = (f"tls-client profiles.{var}: ClientHello from {source}. "
                              "Generated by profiles/tools/convert_upstream.py from tls-client "
                              f"{heads['tls-client'][:12]}, utls {heads['utls'][:12]}, fhttp {heads['fhttp'][:12]}."
                              + ("" if not notes else " " + " ".join(notes)))
            doc["tls"] = profile_tls(spec)
            shared = firefox_shares_x25519_key(name, doc["tls"])
            if shared:
                doc["tls"]["share_x25519_key"] = True
                doc["comment"] += (" share_x25519_key: one X25519 key in the X25519MLKEM768 and x25519 shares, "
                                   "as Firefox sends them (utls makes two; abi/COMPAT.md).")
            if name in REFUSED_BY_SERVERS:
                doc["comment"] += " " + REFUSED_BY_SERVERS[name]
            doc["http2"] = h2
            if h3:
                quic, captured = quic_block(name, args.out)
                if quic:
                    h3["quic"] = quic
                    doc["comment"] += (f" http3.quic: {captured}'s, captured here (upstream's QUIC layer is "
                                       "quic-go's, the same for every profile; abi/COMPAT.md).")
                doc["http3"] = h3
            doc["allow_http"] = allow_http
            ws = websocket_block(name)
            if ws:
                doc["websocket"] = ws
            exp = expected_mod.expected_wire(spec, sni=args.sni)
            exp["name"] = name
            exp["source"] = doc["comment"]
            exp["http2"] = expected_http2(prof)
            if "0x001d" in doc["tls"].get("key_share_groups", []) and HYBRID_X25519_GROUPS & set(
                    doc["tls"].get("key_share_groups", [])):
                exp["same_x25519_key"] = shared
        except Exception as e:  # one report per profile, then fail
            failures.append(f"{name} ({var}): {e}")
            continue
        with open(os.path.join(args.out, f"{name}.json"), "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        with open(os.path.join(args.out, "expected", f"{name}.json"), "w") as f:
            json.dump(exp, f, indent=2)
            f.write("\n")
    default = up.default_profile()
    print(f"{len(by_var) - len(failures)} profiles written; upstream default: {default}")
    for fl in failures:
        print("FAILED:", fl, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
