// The page's DOM helpers: elements built with textContent only (data never goes through
// innerHTML), percentages, the before → after bars and paged tables.

/** Rows per page of every long table. */
const pageSize = 50;

export type Child = Node | string | number | null | undefined | false;
export function h(tag: string, attrs: Record<string, string> | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "number" ? String(c) : c);
  }
  return el;
}

export function pct(v: number, of: number): number {
  return of > 0 ? Math.round((v / of) * 1000) / 10 : 0;
}

/** A before → after bar: the part held before, then what the simulation added (or freed). */
export function bar(before: number, after: number, alloc: number): HTMLElement {
  const base = Math.min(before, after);
  const delta = Math.abs(after - before);
  const b = h("span", { class: "bar" });
  const width = (v: number) => `${Math.min(100, pct(v, alloc))}%`;
  b.append(h("span", { class: "fill before", style: `width:${width(base)}` }));
  b.append(
    h("span", { class: `fill ${after >= before ? "added" : "freed"}`, style: `width:${width(delta)}` }),
  );
  if (alloc > 0 && after > alloc) b.classList.add("over");
  return b;
}

/** A table body paged by `pageSize`, with a pager under it; `rows()` is read on every render. */
export function paged(
  table: HTMLTableElement,
  rows: () => number,
  renderRow: (i: number) => HTMLElement,
  label: string,
): { el: HTMLElement; render: (page?: number) => void } {
  const body = h("tbody", null) as HTMLTableSectionElement;
  table.append(body);
  const info = h("span", { class: "pager-info" });
  const prev = h("button", { type: "button", class: "prev" }, "‹ prev");
  const next = h("button", { type: "button", class: "next" }, "next ›");
  let page = 0;
  const render = (p = page) => {
    const total = rows();
    const pages = Math.max(1, Math.ceil(total / pageSize));
    page = Math.min(Math.max(0, p), pages - 1);
    body.replaceChildren();
    const end = Math.min(total, (page + 1) * pageSize);
    for (let i = page * pageSize; i < end; i++) body.append(renderRow(i));
    info.textContent =
      total === 0
        ? `no ${label}`
        : `${page * pageSize + 1}–${end} of ${total} ${label} (page ${page + 1}/${pages})`;
    (prev as HTMLButtonElement).disabled = page === 0;
    (next as HTMLButtonElement).disabled = page >= pages - 1;
  };
  prev.addEventListener("click", () => render(page - 1));
  next.addEventListener("click", () => render(page + 1));
  const el = h(
    "div",
    { class: "paged" },
    h("div", { class: "scroll" }, table),
    h("div", { class: "pager" }, prev, info, next),
  );
  return { el, render };
}

/** A table head of one row: a string is a column title, an element (`numTh`) is used as is. */
export function thead(...titles: (string | HTMLElement)[]): HTMLElement {
  return h(
    "thead",
    null,
    h("tr", null, ...titles.map((t) => (typeof t === "string" ? h("th", null, t) : t))),
  );
}

/** The title of a column of numbers (right-aligned). */
export function numTh(title: string): HTMLElement {
  return h("th", { class: "num" }, title);
}

/** A search box filtering a table. */
export function searchBox(id: string, placeholder: string): HTMLInputElement {
  return h("input", { type: "search", placeholder, id }) as HTMLInputElement;
}

export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h("section", { id }, h("h2", null, title), ...children);
}
