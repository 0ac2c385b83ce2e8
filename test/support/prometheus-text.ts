// Reading Loupe's Prometheus text (`GET /metrics` on each process's HTTP port) in tests.
import assert from "node:assert/strict";

/** The Prometheus text page of the process whose HTTP port is `httpPort`; checks its status and content type. */
export async function metricsOf(httpPort: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${String(httpPort)}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the first sample of `metric` whose labels include every one of `labels`; undefined when none. */
export function sample(text: string, metric: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(metric)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match?.[1] !== metric) continue;
    if (Object.entries(labels).every(([key, value]) => (match[2] ?? "").includes(`${key}="${value}"`))) return Number(match[3]);
  }
  return undefined;
}
