/**
 * Screens a list opens must be reachable: a list's `form` (add, edit), `detail` (view) and the
 * screens of its `detailBy` each need a route in menu.json that shows them (usually a hidden one),
 * or the list silently offers no 新增 button and no 查看 link.
 */
import type { LintContext } from '../context';

export function checkScreenRoutes(ctx: LintContext): void {
  if (!ctx.routeScreens) return;
  const routed = new Set(ctx.routeScreens.values());
  for (const { file, valid } of ctx.screens.values()) {
    if (!valid || file.value.kind !== 'list') continue;
    const list = file.value;
    const opened: [string | undefined, (string | number)[], string, readonly string[]][] = [
      [list.form, ['form'], 'adds and edits in', ['form', 'wizard']],
      [list.detail, ['detail'], 'shows rows in', ['detail']],
      ...Object.entries(list.detailBy?.screens ?? {}).map(([value, id]): [string | undefined, (string | number)[], string, readonly string[]] => [
        id,
        ['detailBy', 'screens', value],
        `shows rows with ${list.detailBy!.field} = ${value} in`,
        ['detail'],
      ]),
    ];
    for (const [id, path, verb, kinds] of opened) {
      // A missing screen or one of the wrong kind is reported by the screen checks.
      const target = id === undefined ? undefined : ctx.screens.get(id);
      if (!target?.valid || !kinds.includes(target.file.value.kind) || routed.has(id!)) continue;
      ctx.report(
        file,
        path,
        'unrouted-screen',
        `list '${list.id}' ${verb} '${id}', which no route shows: add a route with "screen": "${id}" to menu.json ("hideInMenu": true keeps it out of the menu)`,
      );
    }
  }
}
