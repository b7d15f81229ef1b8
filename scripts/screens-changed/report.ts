/** The reviewer's page: per affected screen its routes, the roles, why it is there, the pictures and the lint findings of its files. */
import { formatDiagnostic, type Diagnostic } from '../../src/schema/diagnostics';
import type { AffectedResult } from './affected';
import type { Shot } from './render';

export interface ReportInput {
  /** What the change was taken against, e.g. "origin/main (3f2a1c0) … working tree" or "--files". */
  against: string;
  changed: readonly string[];
  result: AffectedResult;
  shots: readonly Shot[];
  /** Lint findings of the whole schema directory (paths relative to it). */
  lint: readonly Diagnostic[];
  /** Seconds the run took. */
  seconds?: number;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function reportHtml({ against, changed, result, shots, lint, seconds }: ReportInput): string {
  const parts: string[] = [];
  parts.push(
    `<p>Changes: ${escape(against)}. Changed schema files: ${changed.length ? changed.map((f) => `<code>${escape(f)}</code>`).join(', ') : 'none'}.</p>`,
  );
  if (result.notes.length > 0) {
    parts.push('<h2>Not shown</h2><ul>');
    for (const note of result.notes) parts.push(`<li><code>${escape(note.file)}</code>: ${escape(note.why)}</li>`);
    parts.push('</ul>');
  }
  if (result.screens.length === 0) parts.push('<p class="none">No screen is affected by these changes.</p>');
  else
    parts.push(
      `<p>${result.screens.length} affected screen(s), ${shots.filter((s) => s.png).length} picture(s)${seconds ? ` in ${seconds.toFixed(0)} s` : ''}.</p>`,
    );
  for (const screen of result.screens) {
    const findings = lint.filter((d) => screen.files.includes(d.file) || screen.causes.some((c) => c.file === d.file));
    parts.push(`<section id="${escape(screen.id)}"><h2>${escape(screen.title)} <code>${escape(screen.id)}</code> <small>${screen.kind}</small></h2>`);
    parts.push('<ul class="causes">');
    for (const cause of screen.causes) parts.push(`<li><code>${escape(cause.file)}</code>: ${escape(cause.why)}</li>`);
    parts.push('</ul>');
    parts.push(`<div class="lint"><b>Schema lint</b> (${screen.files.map((f) => `<code>${escape(f)}</code>`).join(' ')}): `);
    parts.push(findings.length === 0 ? 'no findings.' : `<ul>${findings.map((d) => `<li>${escape(formatDiagnostic(d, 'schemas/'))}</li>`).join('')}</ul>`);
    parts.push('</div>');
    if (screen.routes.length === 0) parts.push('<p class="none">No route of the menu shows this screen.</p>');
    const mine = shots.filter((s) => s.screen === screen.id);
    for (const route of screen.routes)
      if (!mine.some((s) => s.route === route.fullPath)) parts.push(`<p class="none">No demo role may open <code>${escape(route.fullPath)}</code>.</p>`);
    for (const shot of mine) {
      const who = shot.role ? `${escape(shot.role.roleName)} (${escape(shot.role.account.loginName)})` : 'visitor (not signed in)';
      parts.push(`<figure><figcaption><code>${escape(shot.address)}</code> as ${who}${shot.note ? ` <em>${escape(shot.note)}</em>` : ''}</figcaption>`);
      if (shot.png) parts.push(`<a href="${escape(shot.png)}"><img src="${escape(shot.png)}" alt="${escape(screen.id)} as ${who}" loading="lazy"></a>`);
      parts.push('</figure>');
    }
    parts.push('</section>');
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Changed screens</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:24px;max-width:1420px}
section{border-top:1px solid #ccc;margin-top:24px}
figure{margin:12px 0}img{max-width:100%;border:1px solid #ddd}
.lint{background:#fafafa;padding:6px 10px}.none{color:#888}em{color:#b35c00}
</style></head><body>
<h1>Changed screens</h1>
${parts.join('\n')}
</body></html>
`;
}
