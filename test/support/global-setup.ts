// Before any test file: the test CA exists and every test process trusts it (Node reads NODE_EXTRA_CA_CERTS at start).
import { makeTestPki } from './tls.js';

export default function setup(): void {
  const pki = makeTestPki();
  process.env.NODE_EXTRA_CA_CERTS = pki.caCert;
}
