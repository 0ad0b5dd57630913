"""What upstream puts on the wire for a ClientHello spec, computed from the
utls extension types of the Go literal (not from our profile schema), for
the capture tests (tests/integration/profiles_test.cc).

The first connection of a session is described; a spec with
UtlsPreSharedKeyExtension sends pre_shared_key only when it resumes
(tls-client sets OmitEmptyPsk), so "psk" tells the test to expect it on the
second connection, last."""
import fingerprint

GREASE = "GREASE"

# Key share sizes on the wire: what utls generates for each group.
KEY_SHARE_SIZE = {29: 32, 23: 65, 24: 97, 25: 133, 0x11ec: 1216, 0x6399: 1216}

EXT_ID = {
    "SNIExtension": 0, "StatusRequestExtension": 5, "SupportedCurvesExtension": 10,
    "SupportedPointsExtension": 11, "SignatureAlgorithmsExtension": 13, "ALPNExtension": 16,
    "SCTExtension": 18, "UtlsPaddingExtension": 21, "ExtendedMasterSecretExtension": 23,
    "UtlsCompressCertExtension": 27, "FakeRecordSizeLimitExtension": 28,
    "DelegatedCredentialsExtension": 34, "SessionTicketExtension": 35, "UtlsPreSharedKeyExtension": 41,
    "SupportedVersionsExtension": 43, "PSKKeyExchangeModesExtension": 45, "KeyShareExtension": 51,
    "ApplicationSettingsExtension": 17513, "ApplicationSettingsExtensionNew": 17613,
    "GREASEEncryptedClientHelloExtension": 65037, "RenegotiationInfoExtension": 65281,
}


def g(v):
    return GREASE if fingerprint.is_grease(v) else v


def _alpn_len(protos):
    return 2 + sum(1 + len(p) for p in protos)


def expected_wire(spec, sni):
    out = {"ciphers": [g(c) for c in spec["ciphers"]], "session_id_length": 32}
    exts, bodies = [], []  # bodies: length, or a list of possible lengths (ECH)
    grease_seen = 0
    fields = {}
    for typ, f in spec["extensions"]:
        if typ == "UtlsGREASEExtension":
            exts.append(GREASE)
            # Chrome/BoringSSL: the first GREASE extension is empty, the
            # second carries one zero byte.
            bodies.append(1 if grease_seen else 0)
            grease_seen += 1
            continue
        if typ == "GenericExtension":
            eid = f["Id"]
            exts.append(eid)
            data = f.get("Data")
            if isinstance(data, dict) and data.get("_type") == "TrustAnchorList":
                # trust_anchors (0xca34): these IDs, each once, in an order
                # drawn once per process (upstream shuffles its capture at
                # package load); every connection of a process sends the
                # same body. The IDs are given in the capture's order.
                ids = [i.hex() for i in data["ids"]]
                out["trust_anchors"] = {"codepoint": eid, "ids": ids,
                                        "body_length": 2 + sum(1 + len(i) for i in data["ids"]),
                                        "order": "once per process"}
                bodies.append(out["trust_anchors"]["body_length"])
                continue
            data = bytes(data or [])
            out.setdefault("raw", {})[str(eid)] = data.hex()
            bodies.append(len(data))
            continue
        eid = EXT_ID[typ]
        fields[typ] = f
        if typ == "UtlsPreSharedKeyExtension":
            out["psk"] = True
            continue  # not on the first connection
        exts.append(eid)
        if typ == "SNIExtension":
            bodies.append(5 + len(sni))
        elif typ in ("ExtendedMasterSecretExtension", "SCTExtension", "SessionTicketExtension"):
            bodies.append(0)
        elif typ == "RenegotiationInfoExtension":
            bodies.append(1)
        elif typ == "StatusRequestExtension":
            bodies.append(5)
        elif typ == "SupportedCurvesExtension":
            out["groups"] = [g(c) for c in f.get("Curves", [])]
            bodies.append(2 + 2 * len(out["groups"]))
        elif typ == "SupportedPointsExtension":
            out["point_formats"] = list(f.get("SupportedPoints") or [])
            bodies.append(1 + len(out["point_formats"]))
        elif typ == "SignatureAlgorithmsExtension":
            # GREASE (Chrome 152+): a fresh value per connection.
            out["sigalgs"] = [g(s) for s in f.get("SupportedSignatureAlgorithms", [])]
            bodies.append(2 + 2 * len(out["sigalgs"]))
        elif typ == "DelegatedCredentialsExtension":
            out["delegated_credentials"] = list(f.get("SupportedSignatureAlgorithms", []))
            bodies.append(2 + 2 * len(out["delegated_credentials"]))
        elif typ == "ALPNExtension":
            out["alpn"] = list(f.get("AlpnProtocols") or [])
            bodies.append(_alpn_len(out["alpn"]))
        elif typ in ("ApplicationSettingsExtension", "ApplicationSettingsExtensionNew"):
            protos = list(f.get("SupportedProtocols") or [])
            out["alps"] = {"codepoint": eid, "protocols": protos}
            bodies.append(_alpn_len(protos))
        elif typ == "SupportedVersionsExtension":
            out["versions"] = [g(v) for v in f.get("Versions", [])]
            bodies.append(1 + 2 * len(out["versions"]))
        elif typ == "PSKKeyExchangeModesExtension":
            out["psk_modes"] = list(f.get("Modes") or [])
            bodies.append(1 + len(out["psk_modes"]))
        elif typ == "UtlsCompressCertExtension":
            out["cert_compression"] = list(f.get("Algorithms", []))
            bodies.append(1 + 2 * len(out["cert_compression"]))
        elif typ == "FakeRecordSizeLimitExtension":
            out["record_size_limit"] = f["Limit"]
            bodies.append(2)
        elif typ == "KeyShareExtension":
            shares = []
            for ks in f.get("KeyShares", []):
                grp = ks["Group"]
                size = 1 if fingerprint.is_grease(grp) else KEY_SHARE_SIZE[grp]
                shares.append([g(grp), size])
            out["key_shares"] = shares
            bodies.append(2 + sum(4 + s for _, s in shares))
        elif typ == "GREASEEncryptedClientHelloExtension":
            suites = [[s["KdfId"], s["AeadId"]] for s in f.get("CandidateCipherSuites", [])]
            lens = list(f.get("CandidatePayloadLens") or [])
            out["ech"] = {"cipher_suites": suites, "payload_lengths": lens}
            # outer type, kdf, aead, config id, enc (X25519), payload + tag
            bodies.append([1 + 2 + 2 + 1 + 2 + 32 + 2 + n + 16 for n in lens])
        elif typ == "UtlsPaddingExtension":
            out["padding"] = True
            bodies.append(None)
        else:
            raise ValueError(f"extension type {typ} not modelled in expected.py")
    out.setdefault("psk", False)
    # BoringSSL's padding rule (utls BoringPaddingStyle is the same): a
    # ClientHello of 256..511 bytes (with its 4-byte header) is padded.
    if out.get("padding"):
        before_ext = 4 + 2 + 32 + 1 + 32 + 2 + 2 * len(spec["ciphers"]) + 1 + 1 + 2
        fixed = sum(4 + b for b in bodies if isinstance(b, int))
        choices = [b for b in bodies if isinstance(b, list)]
        options = {before_ext + fixed + sum(4 + x for x in combo) for combo in _product(choices)}
        padded = {0xff < n < 0x200 for n in options}
        if padded == {False}:
            i = exts.index(21)
            del exts[i]
            out["padding"] = False
        elif padded == {True}:
            out["padding"] = True
        else:
            out["padding"] = "depends"
        out["unpadded_lengths"] = sorted(options)
    else:
        out["padding"] = False
    out["extensions"] = exts
    ja_exts = [e for e in exts if e != 21] if out["padding"] == "depends" else exts
    out["ja3"] = fingerprint.ja3([c for c in spec["ciphers"]], [e for e in ja_exts if e != GREASE],
                                 out.get("groups", []), out.get("point_formats", []))
    out["ja4"] = fingerprint.ja4(spec["ciphers"], [e for e in ja_exts if e != GREASE], out.get("sigalgs", []),
                                 out.get("versions", []), out.get("alpn", []))
    if out["padding"] == "depends":
        out["ja_note"] = "padding depends on the ECH payload length drawn: ja3/ja4 leave 21 out"
    return out


def _product(lists):
    if not lists:
        yield ()
        return
    for x in lists[0]:
        for rest in _product(lists[1:]):
            yield (x,) + rest

