import { Liquid, Token } from 'liquidjs';
import { checkLiquidSyntax, htmlEngine, LineIndex, MAX_LIQUID_TAGS, parseLiquid, textEngine } from './liquid-engine';

/**
 * The save-time check must be linear in the source (issue 51.1): liquidjs asked each token for
 * its line by rescanning the source from the start, and its parser shifted a plain array of every
 * token (V8 moves the rest of a large array on each shift): 40,000 tags took 8 s. The work is
 * counted here, not timed.
 */
describe('the Liquid check is linear', () => {
  const tags = (n: number, salt: string) => Array.from({ length: n }, (_, i) => `<p>{{ a${i % 10}${salt} }}</p>{% if b %}x{% endif %}\n`).join('');

  /** Array shifts of arrays longer than 1,000 elements and token position lookups during `fn`. */
  function countWork(fn: () => void): { bigShifts: number; positions: number } {
    const shift = jest.spyOn(Array.prototype, 'shift');
    const position = jest.spyOn(Token.prototype, 'getPosition');
    let bigShifts = 0;
    try {
      fn();
      for (const ctx of shift.mock.contexts) if ((ctx as unknown[]).length > 1_000) bigShifts++;
      return { bigShifts, positions: position.mock.calls.length };
    } finally {
      shift.mockRestore();
      position.mockRestore();
    }
  }

  it('checks a template of thousands of tags without rescanning the source per token', () => {
    for (const n of [800, 1_600]) {
      const source = tags(n, `x${n}`);
      let problem: unknown;
      expect(countWork(() => (problem = checkLiquidSyntax(source)))).toEqual({ bigShifts: 0, positions: 0 });
      expect(problem).toBeNull();
    }
  });

  it('parses as liquidjs does, with the same templates and errors', () => {
    const source = '{% for i in items %}{{ i | upcase }}{% endfor %}{%- if a -%} {{ b ?? "c" }} {%- endif -%}{% raw %}{{ x }}{% endraw %}{% comment %}{{ x }}{% endcomment %}tail';
    const mine = htmlEngine.renderSync(parseLiquid(source, htmlEngine), { items: ['x', 'y'], a: true });
    expect(mine).toBe(htmlEngine.parseAndRenderSync(source, { items: ['x', 'y'], a: true }));
    expect(() => parseLiquid('ok\n{% if a %}', htmlEngine)).toThrow(/tag {% if a %} not closed, line:2/);
    expect(() => parseLiquid('{{ a | nope }}', htmlEngine)).toThrow(/undefined filter: nope/);
  });

  it('tokenizes markup exactly as liquidjs does', () => {
    const sources = ['', 'no tags', '{{a}}', 'a{{b}}c{%if d%}e{%endif%}', '{% raw %}{{ x }}{% endraw %}z', '{{- a -}}  {%- if b -%} c {%- endif %} {', 'x{ y }{{z}}%}', '{{a}}{{a}}{%if b%}{%endif%}{{a}}'];
    for (const source of sources) {
      const vars = { a: 1, b: true, z: 'Z' };
      expect(textEngine.renderSync(parseLiquid(source, textEngine), vars)).toBe(new Liquid().parseAndRenderSync(source, vars));
    }
  });

  it('names lines from a line-start index, as liquidjs does, in O(log n) per lookup', () => {
    const source = 'a\nbb\n\nccc\n{{ x }}\n';
    const index = new LineIndex(source);
    for (let offset = 0; offset < source.length; offset++) {
      const expected = source.slice(0, offset).split('\n').length;
      expect(index.lineAt(offset)).toBe(expected);
    }
    expect(checkLiquidSyntax('ok\n\n{% for i in (1..200000) %}{% endfor %}')).toMatchObject({ line: 3, tooLarge: true });
  });

  it(`refuses more than ${MAX_LIQUID_TAGS} tags and outputs in one field`, () => {
    const many = (n: number) => '{{ a }}'.repeat(n) + '<p>filler</p>';
    expect(checkLiquidSyntax(many(MAX_LIQUID_TAGS))).toBeNull();
    expect(checkLiquidSyntax(many(MAX_LIQUID_TAGS + 1))).toEqual({ line: null, tooManyTags: true, message: `it has ${MAX_LIQUID_TAGS + 1} tags and outputs; a template may have at most ${MAX_LIQUID_TAGS}` });
  });
});
