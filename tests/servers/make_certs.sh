#!/usr/bin/env bash
# Test PKI for the TLS tests, made fresh with openssl: a root CA, an
# intermediate, and leaves for every verification case and key type.
# Usage: make_certs.sh DIR   (idempotent: does nothing if DIR/done records
# this script's own SHA-256; a changed script remakes the whole set)
set -euo pipefail
dir="$1"
self_sum=$(sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)
[ -f "$dir/done" ] && [ "$(cat "$dir/done")" = "$self_sum" ] && exit 0
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
o() { openssl "$@" 2>/dev/null; }

o req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 -subj "/CN=tlsc test root" \
  -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign
o req -newkey rsa:2048 -nodes -keyout inter.key -out inter.csr -subj "/CN=tlsc test intermediate"
printf 'basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n' > inter.ext
o x509 -req -in inter.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out inter.pem -days 3650 -extfile inter.ext

leaf() {  # name keyalg san issuer days [start]
  local name=$1 alg=$2 san=$3 issuer=$4 days=$5
  case "$alg" in
    rsa) o genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out $name.key ;;
    rsapss) o genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -out $name.key ;;
    p256) o genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out $name.key ;;
    p384) o genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out $name.key ;;
    ed25519) o genpkey -algorithm ED25519 -out $name.key ;;
  esac
  o req -new -key $name.key -out $name.csr -subj "/CN=${name}"
  printf 'subjectAltName=%s\nbasicConstraints=CA:false\nextendedKeyUsage=serverAuth\n' "$san" > $name.ext
  o x509 -req -in $name.csr -CA $issuer.pem -CAkey $issuer.key -CAcreateserial -out $name.pem \
    -days "$days" -extfile $name.ext
  if [ "$issuer" = inter ]; then cat $name.pem inter.pem > $name.chain.pem; else cp $name.pem $name.chain.pem; fi
}
good="DNS:localhost,IP:127.0.0.1"
leaf good rsa "$good" ca 365
leaf chained p256 "$good" inter 365
leaf ecdsa384 p384 "$good" ca 365
leaf ed25519 ed25519 "$good" ca 365
leaf rsapss rsapss "$good" ca 365
leaf wronghost rsa "DNS:wrong.example" ca 365
# A leaf from a CA nobody trusts (SSL_CERT_FILE holds ca.pem only).
o req -x509 -newkey rsa:2048 -nodes -keyout otherca.key -out otherca.pem -days 3650 -subj "/CN=tlsc untrusted root" \
  -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign
leaf unknownca rsa "$good" otherca 365
# A leaf signed with SHA-1 by the root (Go refuses it below the anchor).
o genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out sha1.key
o req -new -key sha1.key -out sha1.csr -subj "/CN=sha1"
printf 'subjectAltName=%s\nbasicConstraints=CA:false\nextendedKeyUsage=serverAuth\n' "$good" > sha1.ext
o x509 -req -sha1 -in sha1.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out sha1.pem -days 365 -extfile sha1.ext
cp sha1.pem sha1.chain.pem
# Expired and not-yet-valid leaves: `openssl x509 -days` cannot date a
# certificate in the past or the future, `openssl ca` can.
o genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out expired.key
o req -new -key expired.key -out expired.csr -subj "/CN=expired"
printf 'subjectAltName=%s\n' "$good" > expired.ext
mkdir -p ca-db && : > ca-db/index.txt && echo 1000 > ca-db/serial
cat > ca.cnf <<CNF
[ ca ]
default_ca = test
[ test ]
dir = ca-db
database = ca-db/index.txt
serial = ca-db/serial
new_certs_dir = ca-db
default_md = sha256
policy = any
copy_extensions = copy
[ any ]
commonName = supplied
CNF
o ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in expired.csr -out expired.pem \
  -startdate 20200101000000Z -enddate 20200102000000Z -extfile expired.ext
cp expired.pem expired.chain.pem
o genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out notyet.key
o req -new -key notyet.key -out notyet.csr -subj "/CN=notyet"
o ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in notyet.csr -out notyet.pem \
  -startdate 20990101000000Z -enddate 20991231000000Z -extfile expired.ext
cp notyet.pem notyet.chain.pem
# Self-signed leaf, trusted by nobody.
o req -x509 -newkey rsa:2048 -nodes -keyout selfsigned.key -out selfsigned.pem -days 365 \
  -subj "/CN=localhost" -addext "subjectAltName=$good"
cp selfsigned.pem selfsigned.chain.pem
# A leaf of about 150 KiB (5,000 names): BoringSSL's default limit on the
# Certificate message is 100 KiB, Go's 256 KiB.
big="$good"
for i in $(seq 1 5000); do big="$big,DNS:name-$i.bigchain.test"; done
leaf bigchain rsa "$big" ca 365
echo "$self_sum" > done
