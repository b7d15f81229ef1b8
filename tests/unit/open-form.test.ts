/**
 * Open forms (form screens with `submit`): the screen's own fields joining (or standing
 * in for) the resource, the compile of `sms`, `password` and `sameAs`, the path and route
 * templates, the values an open form posts, and the lint of all of it.
 */
import { createForm, isField } from '@formily/core';
import type { ISchema } from '@formily/react';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileFormUncached } from '../../src/engine/form/compile';
import { toRecord } from '../../src/engine/form/payload';
import { postedValues } from '../../src/engine/open/OpenFormScreen';
import { differs, SAME_AS_MESSAGE } from '../../src/engine/open/item-schema';
import { callOf, fillTemplate, placeholdersOf, replyMessage } from '../../src/engine/open/templates';
import { formatDiagnostic } from '../../src/schema/diagnostics';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import { screenResource } from '../../src/schema/screen-fields';
import type { FormScreen, Resource, SchemaText } from '../../src/schema/types';
import { RULE_NAMES } from '../../scripts/rule-names';
import { readFileSync } from 'node:fs';
import { publicEntries } from '../../src/app/routes';
import { pageFor } from '../../src/pages/registry';

const metaDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'schemas/meta');

const member: Resource = {
  name: 'member',
  table: 'member',
  title: '成员',
  fields: {
    name: { type: 'string', label: '名称', required: true, maxLength: 50 },
    phone: { type: 'string', label: '手机', rules: ['mobile'], mask: 'mobile' },
    files: { type: 'attachment', label: '附件' },
  },
};

const joinForm: FormScreen = {
  id: 'member-join',
  kind: 'form',
  resource: 'member',
  title: '加入',
  fields: {
    secret: { type: 'string', label: '密码', required: true, rules: ['password'] },
    secretAgain: { type: 'string', label: '确认密码' },
    code: { type: 'string', label: '验证码', required: true },
    files: { type: 'attachment', label: '附件', required: true, requiredMessage: '请上传附件' },
  },
  sections: [
    {
      fields: [
        'name',
        'phone',
        { field: 'secret', password: 'strength' },
        { field: 'secretAgain', password: true, sameAs: { field: 'secret', message: '两次不一致' } },
        'files',
        { field: 'code', sms: { send: '/open/code/{phone}', fields: ['phone'] } },
      ],
    },
  ],
  submit: { path: '/open/join', check: ['/open/check/{name}'], success: '/joined?no={no}' },
};

/** The compiled node of a field (one section, its grid). */
function nodeOf(schema: ISchema, name: string): ISchema {
  const grid = (schema.properties as Record<string, ISchema>).section_0.properties as Record<string, ISchema>;
  return (grid.grid.properties as Record<string, ISchema>)[name];
}

const bundle = (screen: FormScreen, resource?: Resource) => ({ resource: screenResource(screen, resource), resources: new Map(), dicts: new Map() });

describe('screen fields', () => {
  it('join the resource, replacing a field of the same name on this screen only', () => {
    const merged = screenResource(joinForm, member);
    expect(Object.keys(merged.fields)).toEqual(['name', 'phone', 'files', 'secret', 'secretAgain', 'code']);
    expect(merged.fields.files?.required).toBe(true);
    expect(member.fields.files?.required).toBeUndefined();
    expect(screenResource({ ...joinForm, fields: undefined }, member)).toBe(member);
  });

  it('stand in for the resource of an open form without one', () => {
    const own = screenResource({ ...joinForm, resource: undefined }, undefined);
    expect(own.name).toBe('member-join');
    expect(own.title).toBe('加入');
    expect(Object.keys(own.fields)).toEqual(['secret', 'secretAgain', 'code', 'files']);
  });
});

describe('compile of open-form items', () => {
  const schema = compileFormUncached(joinForm, bundle(joinForm, member));

  it('makes an sms item the code field that sends for its fields', () => {
    const code = nodeOf(schema, 'code');
    expect(code['x-component']).toBe('SmsCodeField');
    expect(code['x-component-props']).toMatchObject({ send: '/open/code/{phone}', fields: ['phone'], 'aria-label': '验证码' });
  });

  it('masks password items, with the meter when asked', () => {
    expect(nodeOf(schema, 'secret')['x-component']).toBe('StrengthPassword');
    expect(nodeOf(schema, 'secretAgain')['x-component']).toBe('Password');
    expect(nodeOf(schema, 'name')['x-component']).toBe('Input');
  });

  it('checks a confirmation against its field, keeping the field’s own validators', async () => {
    const form = createForm();
    const secret = form.createField({ name: 'secret', validator: nodeOf(schema, 'secret')['x-validator'] as never });
    const again = form.createField({ name: 'secretAgain', validator: nodeOf(schema, 'secretAgain')['x-validator'] as never });
    secret.setValue('Good@2026x');
    again.setValue('Good@2026y');
    await Promise.resolve(again.validate()).catch(() => undefined);
    expect(again.selfErrors).toEqual(['两次不一致']);
    again.setValue('Good@2026x');
    await Promise.resolve(again.validate()).catch(() => undefined);
    expect(again.selfErrors).toEqual([]);
    // The password rule of the catalogue still applies to the confirmed field.
    secret.setValue('simple12');
    await Promise.resolve(secret.validate()).catch(() => undefined);
    expect(secret.selfErrors.length).toBe(1);
  });

  it('re-checks a filled confirmation when the confirmed field changes', async () => {
    const reactions = nodeOf(schema, 'secretAgain')['x-reactions'] as ((field: unknown) => void)[];
    expect(Array.isArray(reactions) && reactions.length).toBeTruthy();
    const form = createForm({ values: { secret: 'Good@2026x', secretAgain: 'Good@2026x' } });
    form.createField({ name: 'secret' });
    const again = form.createField({ name: 'secretAgain', validator: nodeOf(schema, 'secretAgain')['x-validator'] as never });
    form.setValuesIn('secret', 'Other@2026x');
    for (const react of reactions) react(again);
    await new Promise((r) => setTimeout(r, 0));
    expect(isField(again) && again.selfErrors).toEqual(['两次不一致']);
  });

  it('requires what the screen’s own field requires, with its message', () => {
    const files = nodeOf(schema, 'files');
    expect(files['x-validator']).toEqual([expect.objectContaining({ required: true, message: '请上传附件' })]);
  });

  it('compares a confirmation only once the confirmed value is set', () => {
    expect(differs('', '')).toBe(false);
    expect(differs(undefined, undefined)).toBe(false);
    expect(differs('', 'a')).toBe(true);
    expect(differs('a', 'a')).toBe(false);
    expect(SAME_AS_MESSAGE).toMatch(/不一致/);
  });
});

describe('templates', () => {
  it('fill placeholders URL-encoded and trimmed, empty when absent', () => {
    expect(placeholdersOf('/a/{x}/b/{y}')).toEqual(['x', 'y']);
    expect(fillTemplate('/check/{name}/{code}', { name: ' 宁波 A/B ', code: 91 })).toBe(`/check/${encodeURIComponent('宁波 A/B')}/91`);
    expect(fillTemplate('/done?no={no}&x={missing}', { no: 'ZC2026000001' })).toBe('/done?no=ZC2026000001&x=');
  });

  it('send a code: named fields in the path, the others in the body', () => {
    expect(callOf('/code/reset/{login}', ['login', 'orgcode'], { login: 'abc', orgcode: ' 91X ', other: 1 })).toEqual({
      path: '/code/reset/abc',
      body: { orgcode: '91X' },
    });
    expect(callOf('/code', ['mobile'], { mobile: '13800000000' })).toEqual({ path: '/code', body: { mobile: '13800000000' } });
  });

  it('read a reply’s message', () => {
    expect(replyMessage({ message: '已发送' })).toBe('已发送');
    expect(replyMessage(null)).toBeUndefined();
    expect(replyMessage({ message: 3 })).toBeUndefined();
  });
});

describe('posted values', () => {
  it('leave confirmations out', () => {
    expect(postedValues(joinForm, { name: 'a', secret: 's', secretAgain: 's', code: '123456' })).toEqual({ name: 'a', secret: 's', code: '123456' });
  });

  it('keep what a host page prefilled without showing it (an embedded form)', () => {
    // The form's fields are made from the sections only: `id` and `code` get no field here.
    const form = createForm({ initialValues: { id: 'a'.repeat(32), code: '123456', name: '旧名称' } });
    for (const name of ['name', 'phone', 'secret', 'secretAgain']) form.createField({ name });
    form.setValuesIn('name', '新名称');
    form.setValuesIn('secretAgain', 'x');
    expect(postedValues(joinForm, toRecord(bundle(joinForm, member), form.values))).toEqual({ id: 'a'.repeat(32), code: '123456', name: '新名称' });
  });
});

describe('the correction form of a returned registration', () => {
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../schemas/${name}.json`, import.meta.url), 'utf8'));
  const screen = read('screens/register-correct-form') as FormScreen;
  const resource = read('resources/account-register-apply') as Resource;
  const schema = compileFormUncached(screen, bundle(screen, resource));
  const placed = screen.sections.flatMap((s) => s.fields.map((f) => (typeof f === 'string' ? f : f.field)));

  it('shows the fields of a new application, credit code and mobile fixed, the password optional', () => {
    const fresh = read('screens/register-form') as FormScreen;
    const shown = fresh.sections.flatMap((s) => s.fields.map((f) => (typeof f === 'string' ? f : f.field)));
    expect(placed).toEqual(shown.filter((f) => f !== 'smsCode'));
    expect(nodeOf(schema, 'orgcode')['x-pattern']).toBe('readPretty');
    expect(nodeOf(schema, 'contactMobile')['x-pattern']).toBe('readPretty');
    expect(nodeOf(schema, 'orgname')['x-pattern']).toBeUndefined();
    const requires = (name: string) =>
      [nodeOf(schema, name)['x-validator']].flat().some((v: unknown) => typeof v === 'object' && v !== null && 'required' in v && v.required === true);
    expect(requires('password')).toBe(false);
    expect(nodeOf(schema, 'password')['x-component']).toBe('StrengthPassword');
    expect(requires('licence')).toBe(true);
    expect(requires('orgname')).toBe(true);
  });

  it('posts the application id and the query’s code it does not show, for the check and the resubmission', () => {
    expect(placed).not.toContain('smsCode');
    expect(placed).not.toContain('id');
    const values = postedValues(screen, {
      id: 'b'.repeat(32),
      smsCode: '654321',
      orgcode: '91330203MA9ABCDE1X',
      orgname: '某公司',
      password: 'Good@2026x',
      passwordCheck: 'Good@2026x',
    });
    expect(values).toEqual({ id: 'b'.repeat(32), smsCode: '654321', orgcode: '91330203MA9ABCDE1X', orgname: '某公司', password: 'Good@2026x' });
    expect(fillTemplate(screen.submit!.check![0], values)).toBe('/a/stone/common/ogmUnitRegistInfoModifyCheck/91330203MA9ABCDE1X/%E6%9F%90%E5%85%AC%E5%8F%B8');
  });
});

describe('lint of open forms', () => {
  const lint = (screen: Record<string, unknown>) => {
    const texts: SchemaText[] = [
      { path: 'resources/member.json', text: JSON.stringify({ $schema: '../meta/resource.schema.json', ...member }, null, 2) },
      { path: 'screens/member-join.json', text: JSON.stringify({ $schema: '../meta/screen.schema.json', ...screen }, null, 2) },
    ];
    return lintFiles(texts, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors.map((e) => formatDiagnostic(e));
  };

  it('accepts an open form with and without a resource', () => {
    expect(lint(joinForm as unknown as Record<string, unknown>)).toEqual([]);
    const { resource: _r, ...alone } = joinForm;
    const sections = [{ fields: ['secret', 'code'] }];
    expect(lint({ ...alone, sections, submit: { path: '/open/join', success: '/joined' } })).toEqual([]);
    // A check path names fields the screen does not show.
    expect(lint({ ...alone, sections })).toEqual([expect.stringContaining("placeholder '{name}' is not one of the fields of the screen")]);
  });

  it('needs a resource, or own fields and submit', () => {
    const { resource: _r, submit: _s, ...bare } = joinForm;
    expect(lint(bare).join('\n')).toMatch(/meta-schema/);
  });

  it('reports placeholders that are no field, unknown sms and sameAs fields', () => {
    const screen = {
      ...joinForm,
      sections: [
        { fields: ['name', { field: 'code', sms: { send: '/open/code/{mobile}', fields: ['phoen'] } }, { field: 'secretAgain', sameAs: { field: 'secert' } }] },
      ],
      submit: { ...joinForm.submit, check: ['/open/check/{nmae}'] },
    };
    const errors = lint(screen).join('\n');
    expect(errors).toMatch(/'\{mobile\}' is not one of sms\.fields/);
    expect(errors).toMatch(/phoen/);
    expect(errors).toMatch(/secert/);
    expect(errors).toMatch(/'\{nmae\}' is not one of the fields of the screen/);
  });

  it('checks the screen’s own fields like resource fields', () => {
    const screen = {
      ...joinForm,
      fields: { ...joinForm.fields, code: { type: 'string', label: '验证码', rules: ['nope'] }, extra: { type: 'dict', label: '类别' } },
    };
    const errors = lint(screen).join('\n');
    expect(errors).toMatch(/unknown-rule|meta-schema/);
    expect(errors).toMatch(/dict/);
  });
});

describe('open routes', () => {
  const screens = publicEntries.filter((e) => e.screen);

  it('/register, /resetPassword and /dlgzh are screens', () => {
    expect(Object.fromEntries(screens.map((e) => [e.fullPath, e.screen]))).toMatchObject({
      '/register': 'register-form',
      '/resetPassword': 'reset-password-form',
      '/dlgzh': 'dlgzh-form',
    });
  });

  it('render without a session: every screen of a public route is an open form, or a list or detail behind a proof', () => {
    for (const entry of screens) {
      const screen = JSON.parse(readFileSync(new URL(`../../schemas/screens/${entry.screen}.json`, import.meta.url), 'utf8')) as FormScreen & {
        proof?: unknown;
      };
      const open = screen.kind === 'form' ? Boolean(screen.submit) : (screen.kind === 'list' || screen.kind === 'detail') && Boolean(screen.proof);
      expect({ route: entry.fullPath, kind: screen.kind, open }).toEqual({ route: entry.fullPath, kind: screen.kind, open: true });
      expect(pageFor(entry, true)).not.toBe(pageFor(entry, false));
    }
  });
});
