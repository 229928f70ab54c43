/**
 * Whether a URL names this machine's loopback interface, for the `--allow-loopback` relaxations
 * (plain http accepted only there). IP literals are classified by the shared address guard; the
 * name `localhost` counts too. Other names would need DNS, and so are never treated as loopback.
 */
import { checkAddress, isIpLiteral } from '../protocol/address-guard.js';

export function isLoopbackUrl(raw: string): boolean {
  let host: string;
  try {
    host = new URL(raw).hostname;
  } catch {
    return false;
  }
  if (host === 'localhost') return true;
  return isIpLiteral(host) && checkAddress(host).range === 'loopback';
}
