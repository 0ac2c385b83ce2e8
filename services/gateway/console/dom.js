// DOM helpers of the console: text is always set as text, never parsed as HTML.
const main = document.getElementById("main");

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child);
  return node;
}
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}
export const show = (...nodes) => {
  main.replaceChildren(...nodes);
  main.focus();
};
export const number = (value) => Number(value ?? 0).toLocaleString("en-US");
