import { declaredComponents } from '../../platform/http/declared-body';
import { FILTER_LIMITS, FilterTreeSchema, filtersWithPaths, parseFilterTree } from './filter-tree';

/** The filter tree's declaration: its 422 items (one per field, paths from the root), its limits and the OpenAPI models it gives. */
const one = (...filters: unknown[]) => ({ logic: 'AND', groups: [{ filters }] });
const items = (tree: unknown, root = 'condition') => parseFilterTree(tree, root);
const codes = (tree: unknown) => items(tree).map((e) => `${e.field}:${e.code}`);

describe('FILTER_TREE: the 422 items of a bad shape', () => {
  it('accepts a tree of the declared shape, aliases and nested conditions included', () => {
    const tree = {
      logic: 'OR',
      groups: [
        { filters: [{ field: 'data.age', operator: 'gte', value: 18 }, { field: 'email', operator: 'exists', value: null, unit: 'anything' }] },
        { conditions: { groups: [{ filters: [{ field: 'createdAt', operator: 'within', value: 3, unit: 'days' }] }] } },
      ],
    };
    expect(items(tree)).toEqual([]);
  });

  it('names what is not an object, not an array or not a known key, from the root it is given', () => {
    expect(items(null)).toEqual([{ field: 'condition', code: 'invalid_type', message: 'must be an object {logic, groups}', received: null }]);
    expect(items({ logic: 'XOR' }, 'audienceCondition')).toEqual([
      { field: 'audienceCondition.logic', code: 'invalid_enum', message: 'must be AND or OR', received: 'XOR' },
      { field: 'audienceCondition.groups', code: 'invalid_type', message: 'must be an array of groups' },
    ]);
    expect(items({ groups: [3, { filters: 'f' }, { conditions: [] }], extra: true })).toEqual([
      { field: 'condition.groups[0]', code: 'invalid_type', message: 'must be an object {filters, conditions?}', received: 3 },
      { field: 'condition.groups[1].filters', code: 'invalid_type', message: 'must be an array of filters', received: 'f' },
      { field: 'condition.groups[1]', code: 'empty_group', message: 'a group needs filters or conditions' },
      { field: 'condition.groups[2].conditions', code: 'invalid_type', message: 'must be a filter tree {logic, groups}', received: 'array' },
      { field: 'condition.extra', code: 'unknown_property', message: 'is not a property of a filter tree' },
    ]);
    expect(items(one('x', { field: 'email', operator: 'exists', op: 1 }))).toEqual([
      { field: 'condition.groups[0].filters[0]', code: 'invalid_type', message: 'must be an object {field, operator, value?, unit?}', received: 'x' },
      { field: 'condition.groups[0].filters[1].op', code: 'unknown_property', message: 'is not a property of a filter' },
    ]);
  });

  it('names a missing, unknown or too long field and operator, one item per field', () => {
    expect(items(one({ operator: 'equals', value: 1 }, { field: '', operator: '' }))).toEqual([
      { field: 'condition.groups[0].filters[0].field', code: 'required', message: 'field is required (a string)' },
      { field: 'condition.groups[0].filters[1].field', code: 'required', message: 'field is required (a string)', received: '' },
      { field: 'condition.groups[0].filters[1].operator', code: 'required', message: 'operator is required (a string)', received: '' },
    ]);
    expect(items(one({ field: 'd'.repeat(FILTER_LIMITS.fieldLength + 1), operator: 'o'.repeat(100) }))).toEqual([
      { field: 'condition.groups[0].filters[0].field', code: 'too_long', message: `must be at most ${FILTER_LIMITS.fieldLength} characters` },
      { field: 'condition.groups[0].filters[0].operator', code: 'unknown_operator', message: `unknown operator "${'o'.repeat(64)}"`, received: 'o'.repeat(64) },
    ]);
    expect(items(one({ field: 'data.', operator: 'equals', value: 1 }))[0]).toMatchObject({ code: 'unknown_field', message: expect.stringMatching(/^unknown field "data\." \(email, subscribed/), received: 'data.' });
  });

  it('asks of value and unit what the operator needs, and ignores them where it takes none', () => {
    expect(codes(one({ field: 'email', operator: 'equals', value: 'v'.repeat(FILTER_LIMITS.stringValue + 1) }))).toEqual(['condition.groups[0].filters[0].value:too_long']);
    expect(codes(one({ field: 'email', operator: 'equals', value: [1] }))).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(codes(one({ field: 'createdAt', operator: 'olderThan', value: 0, unit: 'years' }))).toEqual(['condition.groups[0].filters[0].unit:invalid_enum', 'condition.groups[0].filters[0].value:invalid_type']);
    expect(codes(one({ field: 'subscribed', operator: 'gt', value: true }))).toEqual(['condition.groups[0].filters[0].operator:invalid_operator']);
    expect(codes(one({ field: 'createdAt', operator: 'equals', value: 'soon' }))).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(codes(one({ field: 'topics.news', operator: 'equals', value: 'yes' }))).toEqual(['condition.groups[0].filters[0].value:invalid_type']);
    expect(codes(one({ field: 'email', operator: 'notExists', value: { any: 'thing' }, unit: 5 }))).toEqual([]);
    // A data key's type is the project's: not checked here (validate-filter.ts).
    expect(codes(one({ field: 'data.age', operator: 'gt', value: 'old' }))).toEqual([]);
  });
});

describe('FILTER_TREE: its limits', () => {
  const exists = { field: 'email', operator: 'exists' };

  it('refuses a tree larger than the byte limit as a whole', () => {
    const big = one({ field: 'data.plan', operator: 'equals', value: 'x'.repeat(FILTER_LIMITS.bytes) }, { field: 'nope', operator: 'equals' });
    expect(items(big)).toEqual([{ field: 'condition', code: 'too_large', message: `must be at most ${FILTER_LIMITS.bytes} bytes as JSON (got ${JSON.stringify(big).length})` }]);
  });

  it('names each tree nested deeper than the limit and reads nothing below it', () => {
    let deep: Record<string, unknown> = { groups: [{ filters: [{ field: 'nope' }] }] };
    for (let i = 0; i < FILTER_LIMITS.depth; i++) deep = { groups: [{ conditions: deep }] };
    const path = `condition${'.groups[0].conditions'.repeat(FILTER_LIMITS.depth)}`;
    expect(items(deep)).toEqual([{ field: path, code: 'too_deep', message: `conditions nest at most ${FILTER_LIMITS.depth} levels` }]);
    expect(items((deep.groups as Array<{ conditions: unknown }>)[0].conditions)).toEqual([
      { field: `condition${'.groups[0].conditions'.repeat(FILTER_LIMITS.depth - 1)}.groups[0].filters[0].field`, code: 'unknown_field', message: expect.any(String), received: 'nope' },
      { field: `condition${'.groups[0].conditions'.repeat(FILTER_LIMITS.depth - 1)}.groups[0].filters[0].operator`, code: 'required', message: 'operator is required (a string)' },
    ]);
  });

  it('counts filters and groups over the whole tree', () => {
    const half = Math.ceil(FILTER_LIMITS.filters / 2) + 1;
    const filters = { groups: [{ filters: Array.from({ length: half }, () => exists), conditions: { groups: [{ filters: Array.from({ length: half }, () => exists) }] } }] };
    expect(items(filters)).toEqual([{ field: 'condition', code: 'too_many_filters', message: `must hold at most ${FILTER_LIMITS.filters} filters (got ${2 * half})` }]);
    const groups = { groups: Array.from({ length: FILTER_LIMITS.groups + 1 }, () => ({ conditions: { groups: [] } })) };
    expect(codes(groups)).toEqual(['condition:too_many_groups']);
  });

  it('stops at 50 items', () => {
    expect(items(one(...Array.from({ length: 80 }, () => ({ field: 'nope', operator: 'equals', value: 1 }))))).toHaveLength(50);
  });
});

describe('FILTER_TREE: its OpenAPI models', () => {
  const models = declaredComponents();

  it('is a named handle whose document models are the declaration and the parts it names', () => {
    expect(FilterTreeSchema.name).toBe('FilterTreeSchema');
    expect(Object.keys(models)).toEqual(expect.arrayContaining(['FilterSchema', 'FilterGroupSchema', 'FilterTreeSchema']));
  });

  it('documents the keys the declaration accepts, nested trees by reference, with the limits', () => {
    const props = (name: string) => models[name] as { properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties?: unknown };
    expect(props('FilterTreeSchema')).toEqual({
      type: 'object',
      properties: {
        logic: { type: 'string', enum: ['AND', 'OR'], description: 'How the groups combine: AND (default) or OR' },
        groups: { type: 'array', items: { $ref: '#/components/schemas/FilterGroupSchema' }, description: 'Groups of filters (at most 200 groups and 200 filters in the whole tree)' },
      },
      required: ['groups'],
      additionalProperties: false,
    });
    expect(props('FilterGroupSchema').properties.conditions).toEqual({ description: "A nested tree, ANDed with this group's filters (at most 10 levels deep)", allOf: [{ $ref: '#/components/schemas/FilterTreeSchema' }] });
    expect(props('FilterGroupSchema').properties.filters).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/FilterSchema' } });
    const filter = props('FilterSchema');
    expect(Object.keys(filter.properties)).toEqual(['field', 'operator', 'value', 'unit']);
    expect(filter.required).toEqual(['field', 'operator']);
    expect(filter.additionalProperties).toBe(false);
    expect(filter.properties.field).toMatchObject({ type: 'string', maxLength: FILTER_LIMITS.fieldLength, example: 'data.plan' });
    expect(filter.properties.operator.enum).toEqual(expect.arrayContaining(['equals', 'triggeredWithin', 'gte']));
    expect(filter.properties.value.oneOf).toEqual([{ type: 'string', maxLength: FILTER_LIMITS.stringValue }, { type: 'number' }, { type: 'boolean' }]);
    expect(filter.properties.unit).toMatchObject({ type: 'string', enum: ['minutes', 'hours', 'days', 'weeks'] });
  });
});

describe('filtersWithPaths', () => {
  it('lists the filters of a stored tree with their paths, skipping what is not a filter', () => {
    const tree = { logic: 'AND' as const, groups: [{ filters: [{ field: 'email', operator: 'exists' }, 3] }, { conditions: { groups: [{ filters: [{ field: 'subscribed', operator: 'equals', value: true }] }] } }] };
    expect(filtersWithPaths(tree as never, 'condition').map((f) => f.path)).toEqual(['condition.groups[0].filters[0]', 'condition.groups[1].conditions.groups[0].filters[0]']);
  });
});
