// A self-signed serving certificate, as client-go's cert.GenerateSelfSignedCertKeyWithFixtures
// (used by SecureServingOptions.MaybeDefaultWithSelfSignedCerts when no certificate is given).
import { generateKeyPairSync } from "node:crypto";

/**
 * A self-signed CA and a serving certificate for `host` (and 127.0.0.1), as client-go's
 * GenerateSelfSignedCertKeyWithFixtures: RSA 2048, valid for a year. Node's crypto generates the
 * keys; node-forge writes the X.509 certificates (Node cannot).
 */
export async function generateSelfSignedCert(
  host = "localhost",
  ips: string[] = ["127.0.0.1"],
): Promise<{ cert: string; key: string }> {
  // Loaded only when a certificate is generated: the other commands never pay for it.
  const { default: forge } = await import("node-forge");
  const now = Date.now();
  const notAfter = new Date(now + 365 * 24 * 3600 * 1000);
  const keyPair = () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const priv = forge.pki.privateKeyFromPem(privateKey);
    return { priv, pub: forge.pki.setRsaPublicKey(priv.n, priv.e), pem: privateKey };
  };
  const serial = () => forge.util.bytesToHex(forge.random.getBytesSync(16)).replace(/^[89a-f]/, "1");
  const seconds = Math.floor(now / 1000);

  const ca = keyPair();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.pub;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = new Date(now - 3600 * 1000);
  caCert.validity.notAfter = notAfter;
  const caName = [{ name: "commonName", value: `${host}-ca@${seconds}` }];
  caCert.setSubject(caName);
  caCert.setIssuer(caName);
  caCert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
  ]);
  caCert.sign(ca.priv, forge.md.sha256.create());

  const srv = keyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = srv.pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - 3600 * 1000);
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: "commonName", value: `${host}@${seconds}` }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [...ips.map((ip) => ({ type: 7, ip })), { type: 2, value: host }],
    },
  ]);
  cert.sign(ca.priv, forge.md.sha256.create());
  return {
    cert: forge.pki.certificateToPem(cert) + forge.pki.certificateToPem(caCert),
    key: srv.pem,
  };
}
