/**
 * A throw-away PKI for tests: one CA and leaf certificates for test host names,
 * made with the `openssl` command (Node has no X.509 builder). Everything lives
 * in a fresh temporary directory; keys are EC P-256 so generation is fast.
 *
 * The host names are only ever mapped to loopback by the tests' injected
 * resolvers; nothing here touches the network.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestLeaf {
  /** PEM private key. */
  key: string;
  /** PEM certificate, signed by the CA. */
  cert: string;
}

export interface TestPki {
  /** PEM certificate of the CA: pass as `ca` to trust the leaves. */
  ca: string;
  /** A leaf valid for exactly `dnsNames` (and, if given, `ipAddresses`). */
  issue(dnsNames: readonly string[], ipAddresses?: readonly string[]): TestLeaf;
  /** Removes the temporary directory. */
  dispose(): void;
}

function openssl(cwd: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** Creates a CA named `commonName` in a temporary directory. */
export function createTestPki(commonName = 'ucp-location test CA'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'ucp-pki-'));
  openssl(dir, [
    'req',
    '-x509',
    ...EC,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
  let serial = 0;

  return {
    ca,
    issue(dnsNames, ipAddresses = []) {
      serial += 1;
      const name = `leaf${serial}`;
      const san = [...dnsNames.map((d) => `DNS:${d}`), ...ipAddresses.map((ip) => `IP:${ip}`)].join(',');
      writeFileSync(
        join(dir, `${name}.ext`),
        [
          `subjectAltName=${san}`,
          'basicConstraints=critical,CA:FALSE',
          'keyUsage=critical,digitalSignature',
          'extendedKeyUsage=serverAuth',
        ].join('\n'),
      );
      openssl(dir, ['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${dnsNames[0] ?? 'leaf'}`]);
      openssl(dir, [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-set_serial',
        String(1000 + serial),
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      ]);
      return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.crt`), 'utf8') };
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
