import { AppError } from "@loupe/errors";

/**
 * Shares of a first view's budget (each a fraction in [0, 1]) that decide how
 * much head, tail and error evidence each projector keeps. {@link DEFAULT_SHARES}
 * holds the values Loupe ships; a {@link ProjectionSharesOverride} on the
 * projector context replaces some of them (for tuning on recorded runs).
 */
export interface ProjectionShares {
  readonly command: {
    /** Head a script's output may take ahead of its error blocks. */
    readonly scriptHead: number;
    /** Head a test run's output (summary, failures) may take ahead of its error blocks. */
    readonly testRunHead: number;
    /** Left free for the notice naming blocks that did not fit, and for per-line counts. */
    readonly margin: number;
    /** Error lines over this share of the budget come before any head. */
    readonly errorsFirstAbove: number;
    /** The last lines (verdicts) kept first, within this share. */
    readonly tail: number;
    /** More head after the error blocks. */
    readonly head: number;
    /** More tail after the error blocks. */
    readonly moreTail: number;
    /** A piece of an error block too large to fit keeps its start within this share. */
    readonly piece: number;
    /** pytest's short summary block, when it does not fit whole, keeps its start within this share. */
    readonly summaryBlockFallback: number;
  };
  readonly generic: { readonly head: number; readonly tail: number };
  /**
   * Of the room after one notice: the outline (at large budgets), then head
   * and tail of what is left. When the intent's lines are in the view, they
   * stand in for the outline, and the head takes `intentHead` of what they
   * leave (the tail the rest).
   */
  readonly fileRead: {
    readonly outline: number;
    readonly head: number;
    readonly tail: number;
    readonly intentHead: number;
    /** Of the whole budget: the most the one-line map of omitted declarations may cost (see declarationMapNotice); 0 = no map. */
    readonly map: number;
    /** The same when the intent's lines are in the view (they reach into the middle the map names); 0 = no map then. */
    readonly intentMap: number;
  };
  /** Of the room after the header and one notice; the notices' shares are of the whole budget. */
  readonly search: {
    readonly head: number;
    readonly firstHits: number;
    readonly laterHits: number;
    readonly tail: number;
    readonly counts: number;
    readonly omittedFiles: number;
  };
  /** Of the room after the header, one notice and the map; the header's and the map's shares are of the whole budget. */
  readonly listing: {
    readonly head: number;
    readonly samples: number;
    readonly tail: number;
    readonly header: number;
    /** The most the one-line map of omitted entries may cost (see listingMapNotice); 0 = no map. */
    readonly map: number;
  };
  /** projectHeadTail: the head's share (the tail takes the rest first, then the head what it leaves). */
  readonly headTail: { readonly head: number };
  /**
   * Of each line-based projector's budget: what the lines the intent points
   * at (and their context) may take before ordinary output. Unused when the
   * request has no intent or nothing of it occurs in the output.
   */
  readonly intent: {
    readonly command: number;
    readonly fileRead: number;
    readonly search: number;
    readonly listing: number;
    readonly generic: number;
    readonly conversation: number;
  };
}

/** Some of the shares of {@link ProjectionShares}, per group; the others keep their defaults. */
export type ProjectionSharesOverride = { readonly [Group in keyof ProjectionShares]?: Partial<ProjectionShares[Group]> };

/** The shares Loupe ships (measured on shared/corpus, see the projectors' corpus tests). */
export const DEFAULT_SHARES: ProjectionShares = Object.freeze({
  command: Object.freeze({
    scriptHead: 0.65,
    testRunHead: 0.4,
    margin: 0.05,
    errorsFirstAbove: 0.5,
    tail: 0.2,
    head: 0.6,
    moreTail: 0.15,
    piece: 0.15,
    summaryBlockFallback: 0.3,
  }),
  generic: Object.freeze({ head: 0.4, tail: 0.2 }),
  fileRead: Object.freeze({ outline: 0.25, head: 0.65, tail: 0.35, intentHead: 0.5, map: 0.4, intentMap: 0.3 }),
  search: Object.freeze({ head: 0.5, firstHits: 0.5, laterHits: 0.2, tail: 0.2, counts: 0.1, omittedFiles: 0.15 }),
  listing: Object.freeze({ head: 0.3, samples: 0.35, tail: 0.25, header: 0.1, map: 0.6 }),
  headTail: Object.freeze({ head: 0.65 }),
  intent: Object.freeze({ command: 0.4, fileRead: 0.6, search: 0.45, listing: 0.4, generic: 0.5, conversation: 0.4 }),
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The shares in force: the defaults with `override`'s values in their place.
 * Without an override, DEFAULT_SHARES itself.
 *
 * @throws AppError `invalid_argument` for an unknown group or key, or a share
 *   that is not a finite number in [0, 1]
 */
export function resolveShares(override: ProjectionSharesOverride | undefined): ProjectionShares {
  if (override === undefined) return DEFAULT_SHARES;
  if (!isRecord(override)) throw new AppError("invalid_argument", "shares must be an object of groups");
  const resolved: Record<string, Record<string, number>> = {};
  for (const [group, defaults] of Object.entries(DEFAULT_SHARES) as Array<[string, Record<string, number>]>) resolved[group] = { ...defaults };
  for (const [group, values] of Object.entries(override)) {
    const target = Object.hasOwn(resolved, group) ? resolved[group] : undefined;
    if (target === undefined) throw new AppError("invalid_argument", `unknown shares group [group=${group}, known=${Object.keys(DEFAULT_SHARES).join("|")}]`);
    if (values === undefined) continue;
    if (!isRecord(values)) throw new AppError("invalid_argument", `shares group must be an object of shares [group=${group}]`);
    for (const [key, value] of Object.entries(values)) {
      if (!Object.hasOwn(target, key)) throw new AppError("invalid_argument", `unknown share [share=${group}.${key}, known=${Object.keys(target).join("|")}]`);
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
        throw new AppError("invalid_argument", `share must be a number from 0 to 1 [share=${group}.${key}, value=${String(value)}]`);
      }
      target[key] = value;
    }
  }
  return resolved as unknown as ProjectionShares;
}

/** The shares a projector works with: its context's override resolved over the defaults. */
export function sharesOf(context: { readonly shares?: ProjectionSharesOverride | undefined }): ProjectionShares {
  return context.shares === undefined ? DEFAULT_SHARES : resolveShares(context.shares);
}
