import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * The path of a file of an installed package, resolved from this checkout the way Node resolves it
 * (`typescript/lib/typescript.js`), so tests that run real tools never depend on where the checkout lives.
 * Throws when the package is not installed: `npm test` installs every dependency first.
 */
export function installedFile(specifier: string): string {
  return require.resolve(specifier);
}

/** The folder of an installed package (`typescript` → `…/node_modules/typescript`). */
export function installedPackageDir(name: string): string {
  return dirname(installedFile(join(name, "package.json")));
}

/** The workspace's pnpm package store (`node_modules/.pnpm`) that holds `name`, found through its real path. */
export function pnpmStoreOf(name: string): string {
  const real = installedPackageDir(name);
  const marker = `${join("node_modules", ".pnpm")}`;
  const at = real.indexOf(marker);
  if (at < 0) throw new Error(`${name} is not installed from a pnpm store [path=${real}]`);
  return real.slice(0, at + marker.length);
}
