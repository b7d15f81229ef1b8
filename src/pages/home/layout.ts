/** The home desk's layout rules, pure (Desk.tsx, QuickEntries.tsx). */

/**
 * Which charts take a whole row on a wide screen: a trend line always, and a bar or pie chart that
 * would otherwise stand alone, half a row empty beside it (the last of an odd run between lines).
 */
export function fullWidthCharts(types: readonly ('bar' | 'pie' | 'line')[]): boolean[] {
  const full = types.map((type) => type === 'line');
  let run: number[] = [];
  const close = () => {
    if (run.length % 2 === 1) full[run[run.length - 1]] = true;
    run = [];
  };
  types.forEach((type, i) => (type === 'line' ? close() : run.push(i)));
  close();
  return full;
}

/** What an area holds, in words: its first pages by name, and how many there are in all. */
export function entrySummary(pages: readonly { title: string }[]): string {
  const names = pages.slice(0, 2).map((p) => p.title);
  return pages.length > names.length ? `${names.join('、')} 等 ${pages.length} 项` : names.join('、');
}
