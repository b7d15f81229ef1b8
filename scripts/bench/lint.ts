/**
 * npm run bench:lint — the schema lint over a generated corpus of 1,000 screens.
 *
 * Writes 100 resources (12 fields each: text, dict, date, money, bool, rules, a workflow) with
 * ten screens apiece (list, form with reactions, detail, and seven more list/form variants), their
 * dictionaries and a menu naming every screen into a temporary directory, checks that the corpus
 * lints clean, then times `lintSchemas` on it. Goal: < 10 s.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDiagnostic } from '../../src/schema/diagnostics';
import { lintSchemas } from '../../src/schema/node';
import { RULE_NAMES } from '../rule-names';
import { benchCommandLine, printResult, seconds } from './report';

benchCommandLine('bench:lint', 'The schema lint over a generated corpus of 1,000 screens (goal: < 10 s).');

const RESOURCES = 100;
const SCREENS_PER_RESOURCE = 10;
const DICTS = 10;
const GOAL_SECONDS = 10;
const RUNS = 5;

const META_DIR = fileURLToPath(new URL('../../schemas/meta', import.meta.url));

const write = (dir: string, path: string, value: unknown) => writeFileSync(join(dir, path), `${JSON.stringify(value, null, 2)}\n`);

function dict(d: number) {
  return {
    $schema: '../meta/dict.schema.json',
    name: `bench-dict-${d}`,
    title: `字典${d}`,
    items: Array.from({ length: 8 }, (_, i) => ({ value: String(i + 1), label: `选项${d}-${i + 1}` })),
  };
}

function resource(r: number) {
  return {
    $schema: '../meta/resource.schema.json',
    name: `bench-r${r}`,
    table: `bench_r${r}`,
    title: `基准资源${r}`,
    fields: {
      title: { type: 'string', label: '名称', required: true, maxLength: 100, index: true },
      kind: { type: 'dict', label: '类别', dict: `bench-dict-${r % DICTS}`, required: true },
      grade: { type: 'dict', label: '等级', dict: `bench-dict-${(r + 1) % DICTS}` },
      startDate: { type: 'date', label: '开始日期', index: true },
      endDate: { type: 'date', label: '结束日期', notBefore: 'startDate' },
      amount: { type: 'money', label: '金额', min: 0 },
      quantity: { type: 'int', label: '数量', min: 0, max: 100000 },
      urgent: { type: 'bool', label: '紧急', default: false },
      reason: { type: 'text', label: '原因', maxLength: 500, when: 'urgent === true', requiredWhen: 'urgent === true && quantity > 10' },
      contactMobile: { type: 'string', label: '联系手机', maxLength: 11, rules: ['mobile'], mask: 'mobile' },
      contactEmail: { type: 'string', label: '联系邮箱', maxLength: 100, rules: ['email'] },
      remarks: { type: 'text', label: '备注', maxLength: 2000 },
    },
    scope: 'unit',
    workflow: {
      states: [
        { code: 'draft', label: '草稿' },
        { code: 'submitted', label: '已提交' },
        { code: 'approved', label: '已通过' },
        { code: 'returned', label: '已退回' },
      ],
      initial: 'draft',
      finals: ['approved'],
      actions: {
        save: { from: ['draft', 'returned'] },
        commit: { from: ['draft', 'returned'], to: 'submitted' },
        revoke: { from: ['submitted'], to: 'draft' },
        delete: { from: ['draft'] },
        'audit-agree': { from: ['submitted'], to: 'approved', roles: ['authority'], opinion: 'optional' },
        'audit-disagree': { from: ['submitted'], to: 'returned', roles: ['authority'], opinion: 'required' },
      },
    },
  };
}

const listScreen = (r: number, id: string, variant: number) => ({
  $schema: '../meta/screen.schema.json',
  id,
  kind: 'list',
  resource: `bench-r${r}`,
  title: `基准资源${r}列表${variant}`,
  filters: ['title', 'kind', { field: 'startDate', op: 'between' }, 'status'],
  columns: [
    { field: 'title', render: 'ellipsis', width: 200 },
    { field: 'kind', render: 'dictTag' },
    { field: 'grade', render: 'dictTag' },
    { field: 'startDate', render: 'date', sortable: true },
    { field: 'amount', render: 'money' },
    { field: 'status', render: 'dictTag' },
  ],
  defaultSort: { field: 'startDate', order: 'desc' },
  pageSize: 20,
  toolbar: ['add', 'export'],
  rowActions: ['view', { action: 'edit', when: "status in ['draft', 'returned']" }, 'commit', 'revoke', { action: 'delete', confirm: '确定删除？' }],
  form: `bench-r${r}-form`,
  detail: `bench-r${r}-detail`,
});

const formScreen = (r: number, id: string, variant: number) => ({
  $schema: '../meta/screen.schema.json',
  id,
  kind: 'form',
  resource: `bench-r${r}`,
  title: `基准资源${r}表单${variant}`,
  sections: [
    {
      title: '基本信息',
      columns: 2,
      fields: [{ field: 'title', span: 2 }, 'kind', 'grade', 'startDate', 'endDate', 'amount', 'quantity', 'urgent', { field: 'reason', span: 2 }],
    },
    { title: '联系方式', columns: 2, fields: ['contactMobile', 'contactEmail', { field: 'remarks', span: 2 }] },
  ],
  actions: ['save', 'commit', 'back'],
  modes: ['add', 'edit', 'view'],
});

const detailScreen = (r: number, id: string) => ({
  $schema: '../meta/screen.schema.json',
  id,
  kind: 'detail',
  resource: `bench-r${r}`,
  title: `基准资源${r}详情`,
  sections: [{ title: '基本信息', columns: 2, fields: ['title', 'kind', 'grade', 'startDate', 'endDate', 'amount', 'status', 'urgent', 'reason'] }],
  flowLog: true,
  actions: [{ action: 'audit-agree', roles: ['authority'] }, { action: 'audit-disagree', roles: ['authority'] }, 'back'],
});

/** Writes the corpus; returns how many screens it holds. */
function generate(dir: string): number {
  for (const sub of ['resources', 'screens', 'dicts']) mkdirSync(join(dir, sub), { recursive: true });
  cpSync(META_DIR, join(dir, 'meta'), { recursive: true });
  for (let d = 0; d < DICTS; d++) write(dir, `dicts/bench-dict-${d}.json`, dict(d));
  const routes = [];
  let screens = 0;
  for (let r = 0; r < RESOURCES; r++) {
    write(dir, `resources/bench-r${r}.json`, resource(r));
    const ids = [`bench-r${r}-list`, `bench-r${r}-form`, `bench-r${r}-detail`];
    write(dir, `screens/${ids[0]}.json`, listScreen(r, ids[0], 0));
    write(dir, `screens/${ids[1]}.json`, formScreen(r, ids[1], 0));
    write(dir, `screens/${ids[2]}.json`, detailScreen(r, ids[2]));
    for (let v = 1; v <= SCREENS_PER_RESOURCE - 3; v++) {
      const id = v % 2 ? `bench-r${r}-list-${v}` : `bench-r${r}-form-${v}`;
      write(dir, `screens/${id}.json`, v % 2 ? listScreen(r, id, v) : formScreen(r, id, v));
      ids.push(id);
    }
    screens += ids.length;
    routes.push({
      path: `/bench${r}`,
      name: `bench${r}`,
      title: `基准资源${r}`,
      icon: 'AppstoreOutlined',
      children: ids.map((id, i) => ({ path: i === 0 ? 'list' : id, name: id, title: `页面${r}-${i}`, screen: id, ...(i === 0 ? {} : { hideInMenu: true }) })),
    });
  }
  write(dir, 'menu.json', { $schema: './meta/menu.schema.json', public: [{ path: '/login', name: 'login', title: '登录', page: 'Login' }], routes });
  return screens;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-lint-'));
try {
  const screens = generate(dir);
  const times: number[] = [];
  let result = lintSchemas(dir, { ruleNames: RULE_NAMES });
  if (result.errors.length > 0) {
    for (const e of result.errors.slice(0, 10)) console.error(formatDiagnostic(e));
    throw new Error(`the generated corpus has ${result.errors.length} lint errors; fix the generator`);
  }
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = lintSchemas(dir, { ruleNames: RULE_NAMES });
    times.push(performance.now() - started);
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(RUNS / 2)] / 1000;
  console.log(`bench:lint — ${screens} screens, ${RESOURCES} resources, ${DICTS} dicts, menu: ${result.files} files, 0 errors`);
  console.log(`  runs: ${times.map((t) => seconds(t / 1000)).join(', ')} (median of ${RUNS}), ${Math.round(result.files / median)} files/s`);
  printResult('lint of 1,000 screens', `median ${seconds(median)}`, `< ${GOAL_SECONDS} s`, median / GOAL_SECONDS, median < GOAL_SECONDS, 'of the goal');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
