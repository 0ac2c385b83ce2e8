import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { outlineLanguageOf, outlineLevel, withoutNumberPrefix, type OutlineLanguage } from "./outline-level.js";

const cases: Array<[line: string, language: OutlineLanguage, level: number | undefined]> = [
  ["def main():\n", "other", 0],
  ["    def run(self, x):\n", "other", 4],
  ["\tclass Inner:\n", "other", 4],
  ["class BaseReloader:\r\n", "other", 0],
  ["export async function load(path: string) {\n", "other", 0],
  ["export default class App {}\n", "other", 0],
  ["  interface Options {\n", "other", 2],
  ["type Handler = (event: Event) => void;\n", "other", 0],
  ["export const projectFileRead: Projector = (input, context) => {\n", "other", 0],
  ["const handler = async (event) => {\n", "other", 0],
  ["const limit = 10;\n", "other", undefined],
  // Indented, const / let / var bind no navigable declaration.
  ["    const handler = async (event) => {\n", "other", undefined],
  ["  if (ready) {\n", "other", undefined],
  ["    return value;\n", "other", undefined],
  ["  public static void main(String[] args) {\n", "other", 2],
  ["pub(crate) fn parse(input: &str) -> Result<()> {\n", "other", 0],
  ["    impl<T> Display for Wrapper<T> {\n", "other", 4],
  ["static int parse_args(int argc, char **argv)\n", "c", 0],
  ["int count;\n", "c", undefined],
  ["  helper(x);\n", "c", undefined],
  ["## Usage\n", "markdown", 1],
  ["# Title", "markdown", 0],
  ["def not_a_heading():\n", "markdown", undefined],
  [`def ${"x".repeat(500)}():\n`, "other", undefined],
  // Python declares with def and class alone; a docstring's prose that starts with another keyword declares nothing.
  ["def main():\n", "python", 0],
  ["    async def fetch(self, url):\n", "python", 4],
  ["class BaseReloader:\n", "python", 0],
  ["    class Meta(Options):\n", "python", 4],
  ["class Box[T](Generic):\n", "python", 0],
  ["def first[T](items: list[T]) -> T:\n", "python", 0],
  ["    interface for uncertainty propagation\n", "python", undefined],
  ["    function that returns the wrapped value\n", "python", undefined],
  ["        class itself is excluded from the search; only its parents\n", "python", undefined],
  ["    object created by combining the date and time\n", "python", undefined],
  ["export default class App {}\n", "python", undefined],
];

describe("outlineLevel", () => {
  it("finds the declarations a reader navigates by, at their indentation", () => {
    for (const [line, language, level] of cases) assert.equal(outlineLevel(line, false, language), level, JSON.stringify(line));
  });

  it("skips the line number a read tool printed (cat -n, arrow and colon styles)", () => {
    for (const [line, language, level] of cases) {
      for (const prefix of ["    42\t", "42→", "42:"]) {
        assert.equal(outlineLevel(`${prefix}${line}`, true, language), level, JSON.stringify(prefix + line));
        assert.equal(withoutNumberPrefix(`${prefix}${line}`), line);
      }
    }
    // Unnumbered reads keep a leading number as text.
    assert.equal(outlineLevel("42\tdef main():\n", false, "other"), undefined);
  });

  it("knows C, Markdown and Python files by their paths", () => {
    assert.equal(outlineLanguageOf("src/main.c"), "c");
    assert.equal(outlineLanguageOf("include/a.hpp"), "c");
    assert.equal(outlineLanguageOf("README.md"), "markdown");
    assert.equal(outlineLanguageOf("app.py"), "python");
    assert.equal(outlineLanguageOf("stubs/typing.pyi"), "python");
    assert.equal(outlineLanguageOf("app.js"), "other");
    assert.equal(outlineLanguageOf(""), "other");
  });
});
