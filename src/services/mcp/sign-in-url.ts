// Which sign-in (OAuth authorization) addresses a browser may be sent to. The address comes from
// the server's metadata, so a hostile or compromised server chooses it: it could point the browser
// at a local file, a script, the cloud metadata service, or a look-alike host behind a user name
// (`https://good.example@evil.example`). Only https (or http to this machine) to an ordinary host
// is opened, and only after the user saw the address and asked for it.

export type SignInUrlCheck = { ok: true; url: string; host: string } | { ok: false; reason: string };

/** Host names of cloud metadata services (reachable from a browser on a cloud machine). */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com', 'metadata.tencentyun.com']);
/** Metadata addresses outside 169.254.0.0/16: Alibaba Cloud, Oracle Cloud (also link-local), AWS over IPv6. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', '192.0.0.192', 'fd00:ec2::254']);

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:a9fe:a9fe`), as the URL parser writes it. */
function mappedIpv4(ipv6: string): number[] | undefined {
  const match = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ipv6);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  return ipv4(host)?.[0] === 127;
}

/** Why the browser must not be sent to this host, or undefined for an ordinary host. */
function hostProblem(host: string): string | undefined {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const name = bare.replace(/\.$/, '');
  if (name.length === 0) return 'it names no host';
  if (METADATA_HOSTS.has(name) || METADATA_ADDRESSES.has(name)) return `${name} is a cloud metadata service`;
  const v4 = ipv4(name) ?? (host.startsWith('[') ? mappedIpv4(name) : undefined);
  if (v4) {
    const address = v4.join('.');
    if (METADATA_ADDRESSES.has(address)) return `${address} is a cloud metadata service`;
    if (v4[0] === 169 && v4[1] === 254) return `${address} is a link-local address (cloud metadata services live there)`;
    if (v4.every((octet) => octet === 0)) return `${address} is not a real host`;
    return undefined;
  }
  if (host.startsWith('[')) {
    // fe80::/10: the first 10 bits are 1111 1110 10.
    const first = parseInt(name.split(':')[0] || '0', 16);
    if ((first & 0xffc0) === 0xfe80) return `${name} is a link-local address`;
    if (name === '::') return `${name} is not a real host`;
  }
  return undefined;
}

/** Checks a sign-in address before anyone is shown a way to open it. */
export function checkSignInUrl(raw: string): SignInUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a URL' };
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'https' && scheme !== 'http') return { ok: false, reason: `only https addresses are opened, not ${scheme}:` };
  if (url.username || url.password) return { ok: false, reason: `it hides the real host behind a user name (…@${url.hostname}): only ${url.hostname} would be visited` };
  const problem = hostProblem(url.hostname);
  if (problem) return { ok: false, reason: problem };
  if (scheme === 'http' && !isLoopback(url.hostname)) return { ok: false, reason: `plain http is opened only for this machine (localhost, 127.0.0.1, ::1), not ${url.hostname}` };
  return { ok: true, url: url.toString(), host: url.host };
}
