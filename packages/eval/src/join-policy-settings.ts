/**
 * The policy families whose settings a comma-separated `--policy` list splits off, and which settings
 * each takes: core and Loupe policies (also behind `blind:` and `head:`), and context editing.
 */
const FAMILIES: ReadonlyArray<{ readonly name: RegExp; readonly bare: RegExp; readonly setting: RegExp }> = [
  // `budget=N`, `intent=on`, `model=NAME` or `group.share=X`.
  { name: /^(?:(?:blind|head):)?(?:core|loupe)(?::|$)/, bare: /(?:^|:)(?:core|loupe)$/, setting: /^(?:budget|intent|model|[A-Za-z]+\.[A-Za-z]+)=/ },
  { name: /^context-editing(?::|$)/, bare: /^context-editing$/, setting: /^(?:trigger|keep)=/ },
];

/**
 * Names as a comma-separated list gives them, with each setting joined back to the policy before it when
 * that policy's family takes it: `core:budget=1000`, `command.tail=0.3` → `core:budget=1000,command.tail=0.3`
 * (and `core`, `command.tail=0.3` → `core:command.tail=0.3`; `context-editing`, `trigger=20000`, `keep=1` →
 * `context-editing:trigger=20000,keep=1`). Other names pass as they are.
 */
export function joinPolicySettings(names: readonly string[]): string[] {
  const joined: string[] = [];
  for (const name of names) {
    const previous = joined[joined.length - 1];
    const family = previous === undefined ? undefined : FAMILIES.find((one) => one.name.test(previous));
    if (previous !== undefined && family?.setting.test(name) === true)
      joined[joined.length - 1] = `${previous}${family.bare.test(previous) ? ":" : ","}${name}`;
    else joined.push(name);
  }
  return joined;
}
