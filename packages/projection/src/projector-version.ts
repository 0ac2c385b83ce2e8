/**
 * Names the projection rules in force. Any change to what a view contains for
 * a given input changes this string (invariant: same input, rule, budget and
 * version → same bytes).
 */
export const PROJECTOR_VERSION = "loupe-projection/0.9.7";
