/**
 * A count said with the rows that go with it. A text that says "9 rows" shows nine; one that shows
 * fewer says so, of how many, and where the others are, so that no reader takes a part for the
 * whole (a model that saw 5 of 9 salary rows, unmarked, reported the wrong senior pay).
 */

/**
 * `9 benchmark rows<detail>` when every one is shown, else
 * `10 of 179 benchmark rows shown<detail>; the other 169: <rest>`, where `rest` says where they
 * are (structuredContent, the next page, a narrower call) and `detail` (`, largest samples first`)
 * follows the noun in both.
 */
export function shownOf(shown: number, total: number, noun: string, rest: string, detail = ''): string {
  return shown >= total
    ? `${total} ${noun}${detail}`
    : `${shown} of ${total} ${noun} shown${detail}; the other ${total - shown}: ${rest}`;
}
