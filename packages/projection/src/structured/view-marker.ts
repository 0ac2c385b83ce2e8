import type { Shaped } from "./shape-by-view.js";

/*
 * A JSON view shaped by a field view says so inside the JSON, so the view stays valid JSON:
 *   an object root gets a last member  "$loupe_view":{"$loupe":"view","name":"concise","left_out":[…],"other_views":{…},"recover":{…}}
 *   an array root gets a last element  {"$loupe":"view",…}
 * "other_views" maps each other view's name to the Recover request that serves it; "recover"
 * is the request for the whole original (null when nothing was saved).
 */

/** The marker object for what a field view left out; undefined when it left out nothing. */
export function viewMarker(shaped: Shaped, resultId: string): string | undefined {
  const { selected, omission, dropped } = shaped;
  if (selected === undefined || omission === undefined || dropped === undefined) return undefined;
  const others = Object.keys(selected.spec.views).filter((name) => name !== selected.name);
  const otherViews = resultId === "" ? {} : Object.fromEntries(others.map((name) => [name, { result_id: resultId, view: name }]));
  const recover = resultId === "" ? null : { result_id: resultId, json_pointer: "" };
  return JSON.stringify({ $loupe: "view", name: selected.name, left_out: dropped, other_views: otherViews, recover });
}

/**
 * Puts a view marker into a JSON view's text: the last member of an object root, the last
 * element of an array root. Undefined when the text's root is neither (the caller then adds the
 * notice as a line).
 */
export function insertViewMarker(text: string, marker: string): string | undefined {
  const body = text.trimEnd();
  const close = body.at(-1);
  const open = body.trimStart()[0];
  if (!((open === "{" && close === "}") || (open === "[" && close === "]"))) return undefined;
  const inner = body.slice(0, -1).trimEnd();
  const empty = inner.endsWith(open);
  const multiline = body.includes("\n");
  const member = open === "{" ? `"$loupe_view":${marker}` : marker;
  const separator = empty ? (multiline ? "\n" : "") : multiline ? ",\n" : ",";
  return `${inner}${separator}${member}${multiline ? "\n" : ""}${close}${text.slice(body.length)}`;
}
