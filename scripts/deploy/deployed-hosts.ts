// Where `wrangler deploy` says the Worker now answers: the lines under "Deployed <name> triggers",
// which are its workers.dev address, its custom domains and its routes (cron schedules and the like
// are not addresses).

/** The https origins the Worker answers at, custom domains first (what people should be sent to). */
export function deployedOrigins(output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => /^Deployed \S+ triggers/.test(line.trim()));
  if (start === -1) return [];
  const domains: string[] = [];
  const others: string[] = [];
  for (const raw of lines.slice(start + 1)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("Current Version ID")) break;
    const url = /^(https?:\/\/[^\s/]+)\/?$/.exec(line)?.[1];
    if (url) {
      others.push(url);
      continue;
    }
    // wrangler 4 (`renderRoute`): "host (custom domain)", or with " - zone name: z" / " - zone id: z",
    // then perhaps " [production: enabled, previews: disabled]".
    const domain = /^([a-z0-9.-]+\.[a-z]{2,}) \(custom domain(?: - zone (?:name|id): [^)]+)?\)(?: \[[^\]]*\])?$/i.exec(line)?.[1];
    if (domain) {
      domains.push(`https://${domain.toLowerCase()}`);
      continue;
    }
    // A route: "host/path* (zone name: zone)", or the bare pattern; a wildcard host is no single
    // host to allow, and "workflow: name" or a cron schedule no address.
    const route = /^([a-z0-9.-]+\.[a-z]{2,})(?:\/\S*)?(?: \(zone (?:name|id): [^)]+\))?$/i.exec(line)?.[1];
    if (route) domains.push(`https://${route.toLowerCase()}`);
  }
  return [...new Set([...domains, ...others])];
}

/** What ALLOWED_HOSTS and PUBLIC_URL become when they are empty: every deployed host, and the first origin. */
export function hostSettings(origins: string[]): { allowedHosts: string; publicUrl: string } | null {
  if (origins.length === 0) return null;
  return {
    allowedHosts: origins.map((origin) => new URL(origin).hostname).join(","),
    publicUrl: origins[0] as string,
  };
}
