/** An omission of a line view with the text Recover returned for it. */
export interface RecoveredOmission {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * Rebuilds an original from its first view and the recovered omissions: the
 * view is header notice lines, then per original line either the line itself
 * or, for each omitted run, one line standing for it (its notice, or a line
 * shown in another form). Returns what the pages and the view give together.
 */
export function rebuildFromView(viewText: string, totalLines: number, omissions: readonly RecoveredOmission[]): string {
  const viewLines = viewText.split(/(?<=\n)/).filter((line) => line !== "");
  const omitted = omissions.reduce((sum, omission) => sum + omission.endLine - omission.startLine + 1, 0);
  let cursor = viewLines.length - (totalLines - omitted + omissions.length);
  const byStart = new Map(omissions.map((omission) => [omission.startLine, omission]));
  let rebuilt = "";
  for (let line = 1; line <= totalLines;) {
    const omission = byStart.get(line);
    cursor++;
    if (omission) {
      rebuilt += omission.text;
      line = omission.endLine + 1;
    } else {
      rebuilt += viewLines[cursor - 1] ?? "";
      line++;
    }
  }
  return rebuilt;
}
