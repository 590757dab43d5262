// A test certificate authority and a server certificate for 127.0.0.1/localhost, made with the openssl CLI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  caCert: string;
  /** PEM key and certificate of a server valid for localhost, 127.0.0.1 and ::1, signed by the CA. */
  key: string;
  cert: string;
}

/** Creates (once per directory) the CA and the server certificate; idempotent so parallel files can share it. */
export function makeTestPki(dir = join(tmpdir(), 'reviews-test-pki')): TestPki {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  if (!existsSync(file('server.crt'))) {
    const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '3650',
      '-subj',
      '/CN=Reviews test CA',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
    );
    const ext = file('server.ext');
    execFileSync('sh', [
      '-c',
      `printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\\nbasicConstraints=CA:FALSE\\n' > '${ext}'`,
    ]);
    run(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '3650',
      '-extfile',
      ext,
      '-out',
      file('server.crt.tmp'),
    );
    execFileSync('mv', [file('server.crt.tmp'), file('server.crt')]);
  }
  return {
    dir,
    caCert: file('ca.crt'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.crt'), 'utf8'),
  };
}
