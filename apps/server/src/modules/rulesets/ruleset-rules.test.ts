import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { createPosKey, posTestFile } from '../pos/pos.fixtures';

/** Rulesets' config v2 (PROGRAMME-API §3): created through the API, validated by the contract and the service. */
const { ctx, posId } = await posTestFile();
const { app } = ctx;
let version = 1000;

const create = (config: object, token = ctx.tokens.MANAGER) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/rulesets',
    headers: bearer(token),
    payload: { version: ++version, config, activeFrom: null },
  });
const rule = (values: object = {}) => ({ name: 'Double dairy', percent: 2, ...values });

describe('ruleset config v2', () => {
  it('stores minSpend, caps and rules; lists and audits them; a v1 ruleset reads with none', async () => {
    const config = {
      percent: 1,
      minSpend: 10,
      maxPointsPerReceipt: 50.5,
      maxPointsPerCardPerDay: 100,
      rules: [
        rule({ categories: ['dairy'], daysOfWeek: [6, 7], hours: { from: '22:00', to: '23:59' } }),
        { name: 'Opening', percent: 999.99, posIds: [posId], skus: ['A', 'B'] },
      ],
    };
    const res = await create(config);
    expect(res.statusCode).toBe(201);
    expect(res.json().config).toEqual(config);
    const listed = await app.inject({
      url: `/api/v1/rulesets?search=${version}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(listed.json().content[0].config).toEqual(config);
    const audit = await app.inject({
      url: '/api/v1/audit?targetType=ruleset&size=1',
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(audit.json().content[0].message).toBe(`Created ruleset version ${version} (1%, 2 rules, Draft)`);

    const plain = await create({ percent: 3 });
    expect(plain.json().config).toEqual({
      percent: 3,
      minSpend: null,
      maxPointsPerReceipt: null,
      maxPointsPerCardPerDay: null,
      rules: [],
    });
  });

  it.each([
    ['a duplicate rule name', { rules: [rule(), rule()] }, 'config.rules.1.name'],
    ['a reserved rule name', { rules: [rule({ name: 'base' })] }, 'config.rules.0.name'],
    ['a blank rule name', { rules: [rule({ name: '  ' })] }, 'config.rules.0.name'],
    ['percent above 1000', { rules: [rule({ percent: 1000.01 })] }, 'config.rules.0.percent'],
    ['percent below 0', { rules: [rule({ percent: -1 })] }, 'config.rules.0.percent'],
    ['percent with 3 decimals', { rules: [rule({ percent: 1.005 })] }, 'config.rules.0.percent'],
    ['day 0', { rules: [rule({ daysOfWeek: [0] })] }, 'config.rules.0.daysOfWeek.0'],
    ['day 8', { rules: [rule({ daysOfWeek: [8] })] }, 'config.rules.0.daysOfWeek.0'],
    [
      'hours not HH:MM',
      { rules: [rule({ hours: { from: '9:00', to: '12:00' } })] },
      'config.rules.0.hours.from',
    ],
    ['hour 24', { rules: [rule({ hours: { from: '10:00', to: '24:00' } })] }, 'config.rules.0.hours.to'],
    ['a store that is no uuid', { rules: [rule({ posIds: ['till-1'] })] }, 'config.rules.0.posIds.0'],
    ['51 rules', { rules: Array.from({ length: 51 }, (_, i) => rule({ name: `R${i}` })) }, 'config.rules'],
    ['a negative minSpend', { minSpend: -1 }, 'config.minSpend'],
    ['a cap with 3 decimals', { maxPointsPerReceipt: 0.001 }, 'config.maxPointsPerReceipt'],
  ])('refuses %s with a 400 naming the field', async (_, config, field) => {
    const res = await create({ percent: 1, ...config });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('stores hours that run past midnight (From after To) and one minute (From equal to To)', async () => {
    const hours = [
      { from: '22:00', to: '02:00' },
      { from: '12:00', to: '12:00' },
    ];
    const res = await create({
      percent: 1,
      rules: hours.map((h, i) => rule({ name: `Hours ${i}`, hours: h })),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().config.rules.map((r: { hours: unknown }) => r.hours)).toEqual(hours);
  });

  it('accepts exactly 50 rules', async () => {
    const res = await create({
      percent: 1,
      rules: Array.from({ length: 50 }, (_, i) => rule({ name: `R${i}` })),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().config.rules).toHaveLength(50);
  });

  it('refuses a store that is no POS key with a 400 on that rule, and creates nothing', async () => {
    const known = await createPosKey(ctx);
    const unknown = '00000000-0000-4000-8000-000000000001';
    const before = await app.inject({ url: '/api/v1/rulesets?size=1', headers: bearer(ctx.tokens.VIEWER) });
    const res = await create({
      percent: 1,
      rules: [rule({ posIds: [known.id] }), rule({ name: 'Other', posIds: [known.id, unknown] })],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'config.rules.1.posIds', message: 'Unknown POS key' }]);
    const after = await app.inject({ url: '/api/v1/rulesets?size=1', headers: bearer(ctx.tokens.VIEWER) });
    expect(after.json().totalElements).toBe(before.json().totalElements);
  });

  it('stores a store given in capitals as the POS key id it is, so the rule matches that till', async () => {
    // The rule's stores are compared with the till's id as text: kept as typed, a rule for a store written in
    // capitals (a valid UUID, accepted as a known key) never matched a receipt of it.
    const res = await create({ percent: 1, rules: [rule({ posIds: [posId.toUpperCase()] })] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().config.rules[0].posIds).toEqual([posId]);
  });

  it('refuses a misspelt condition or cap (400 on that field) instead of dropping it, and creates nothing', async () => {
    const before = await app.inject({ url: '/api/v1/rulesets?size=1', headers: bearer(ctx.tokens.VIEWER) });
    // Dropped, `category` would leave a rule without conditions (every line), `maxPointsPerReciept` no cap.
    const misspelt = [
      { config: { percent: 1, rules: [rule({ category: ['dairy'] })] }, field: 'config.rules.0' },
      { config: { percent: 1, maxPointsPerReciept: 5 }, field: 'config' },
    ];
    for (const { config, field } of misspelt) {
      const res = await create(config);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().details[0].field).toBe(field);
    }
    const after = await app.inject({ url: '/api/v1/rulesets?size=1', headers: bearer(ctx.tokens.VIEWER) });
    expect(after.json().totalElements).toBe(before.json().totalElements);
  });
});
