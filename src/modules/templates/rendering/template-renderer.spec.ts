import { checkLiquidSyntax, literalRangeProblem, MAX_LITERAL_ITERATIONS, nullishOperator, textEngine } from './liquid-engine';
import { cleanSubject, TemplateRenderer } from './template-renderer';

describe('TemplateRenderer', () => {
  const renderer = new TemplateRenderer();
  const render = (body: string, variables: Record<string, unknown> = {}, subject = 'Hi') =>
    renderer.renderSource({ subject, body }, variables);

  it('renders plain, nested and bracket lookups', () => {
    const vars = { firstName: 'Ann', profile: { tier: 'gold' }, 'first name': 'bob' };
    expect(render('{{firstName}}/{{profile.tier}}/{{data["first name"] | capitalize}}', vars).html).toBe('Ann/gold/Bob');
  });

  // The one syntax the dashboard shows for a data key (web/src/lib/liquid-keys.ts): a plain
  // identifier as `{{key}}`, any other key (an imported `First Name` is `first name`) as `{{ data["key"] }}`.
  it('renders keys with spaces or dashes only through data["…"], never as {{first name}}', () => {
    const vars = { 'first name': 'Ada', 'plan-tier': 'gold', '2fa': 'on', firstName: 'Grace' };
    expect(render('{{ data["first name"] }}|{{ data["plan-tier"] }}|{{ data["2fa"] }}|{{firstName}}|{{ data["firstName"] }}', vars).html).toBe('Ada|gold|on|Grace|Grace');
    expect(render('{{ data["first name"] ?? "friend" }}/{{ data["last name"] ?? "friend" }}', vars).html).toBe('Ada/friend');
    expect(render('{{first name}}', vars).html).not.toContain('Ada');
    expect(render('{{ first_name }}', vars).html).toBe('');
  });

  it('applies ?? only when the value is missing or null', () => {
    const vars = { present: 'x', nothing: null, no: false, empty: '', zero: 0 };
    expect(render('{{missing ?? "fb"}}|{{nothing ?? "fb"}}|{{present ?? "fb"}}', vars).html).toBe('fb|fb|x');
    expect(render('{{no ?? "fb"}}|{{empty ?? "fb"}}|{{zero ?? "fb"}}', vars).html).toBe('false||0');
    expect(render('{{ profile.tier ?? "basic" | upcase }}', {}).html).toBe('BASIC');
    expect(render('{{ data.name ?? "friend" }}', { name: 'Zoe' }).html).toBe('Zoe');
    expect(nullishOperator(undefined, 1)).toBe(1);
    expect(nullishOperator(0, 1)).toBe(0);
  });

  it('supports conditionals, loops and filters', () => {
    const html = render('{% if vip %}VIP{% else %}std{% endif %}:{% for i in items %}{{i | upcase}},{% endfor %}{{ n | plus: 1 }}', {
      vip: true,
      items: ['a', 'b'],
      n: 41,
    }).html;
    expect(html).toBe('VIP:A,B,42');
  });

  it('escapes values in the body but not in the subject, whose line breaks are removed', () => {
    const out = render('<p>{{name}}</p>{{name | raw}}', { name: '<b>"Tom" & Jerry</b>' }, 'Hello {{name}}\r\nBcc: x@y.z');
    expect(out.html).toBe('<p>&lt;b&gt;&#34;Tom&#34; &amp; Jerry&lt;/b&gt;</p><b>"Tom" & Jerry</b>');
    expect(out.subject).toBe('Hello <b>"Tom" & Jerry</b> Bcc: x@y.z');
    expect(cleanSubject('a\n\nb\r')).toBe('a b');
  });

  it('caches one compiled template per distinct source', () => {
    const source = { subject: 's', body: '{{a}}' };
    expect(renderer.compile(source)).toBe(renderer.compile({ ...source }));
    expect(renderer.compile(source)).not.toBe(renderer.compile({ subject: 's', body: '{{b}}' }));
  });

  it('names the line of a syntax error and refuses file tags and unknown filters', () => {
    expect(checkLiquidSyntax('ok {{a}}')).toBeNull();
    expect(checkLiquidSyntax('line one\nline two {% if x %}\nthree')).toEqual({ line: 2, message: expect.stringContaining('not closed') });
    expect(checkLiquidSyntax('{% include "/etc/passwd" %}')).not.toBeNull();
    expect(checkLiquidSyntax('\n\n{{ a | nosuchfilter }}')?.line).toBe(3);
  });

  it('refuses huge literal ranges (anywhere in the markup) and literal loops whose nesting multiplies past the bound', () => {
    expect(checkLiquidSyntax('a\n{% for i in (1..60000000) %}{% endfor %}')).toEqual({ line: 2, tooLarge: true, message: expect.stringContaining('(1..60000000) has 60000000 items') });
    expect(checkLiquidSyntax('{{ (0..100000) | join }}', textEngine)?.tooLarge).toBe(true);
    expect(checkLiquidSyntax(`{% assign r = (1..${MAX_LITERAL_ITERATIONS}) %}`)).toBeNull();
    expect(literalRangeProblem('{% for a in (1..1000) %}{% for b in ( 1 .. 1000 ) limit: 2 %}{% endfor %}{% endfor %}')).toEqual({ line: 1, tooLarge: true, message: expect.stringContaining('1000000 times') });
    expect(literalRangeProblem('{% tablerow a in (1..400) %}{% for b in (1..400) %}{% endfor %}{% endtablerow %}')?.tooLarge).toBe(true);
    // Siblings do not multiply; loops over data are not counted; strings, comments and raw text are not markup.
    expect(literalRangeProblem('{% for a in (1..1000) %}{% endfor %}{% for b in (1..1000) %}{% for c in (1..50) %}{% endfor %}{% endfor %}')).toBeNull();
    expect(literalRangeProblem('{% for a in (1..1000) %}{% for b in items %}{% for c in (1..n) %}{% endfor %}{% endfor %}{% endfor %}')).toBeNull();
    expect(literalRangeProblem('{{ "(1..60000000)" }} (1..60000000) {% comment %}{% for i in (1..60000000) %}{% endcomment %}{% raw %}{{ (1..60000000) }}{% endraw %}')).toBeNull();
  });

  it('makes a readable plain-text part from the HTML', () => {
    const text = renderer.toText('<h1>Title</h1><p>Hello <a href="https://x.test/a">there</a></p><img src="x.png"><ul><li>one</li></ul>');
    expect(text).toContain('TITLE');
    expect(text).toContain('Hello there <https://x.test/a>');
    expect(text).toContain('* one');
    expect(text).not.toContain('x.png');
  });

  it('converts each distinct HTML on its own, however often the same HTML recurs', () => {
    const html = (name: string) => `<p>Hello ${name}</p><p>${'x '.repeat(10)}</p>`;
    expect(renderer.toText(html('Ann'))).toContain('Hello Ann');
    expect(renderer.toText(html('Bob'))).toContain('Hello Bob');
    expect(renderer.toText(html('Ann'))).toContain('Hello Ann');
    for (let i = 0; i < 20; i++) expect(renderer.toText(html(`n${i}`))).toContain(`Hello n${i}`);
    expect(renderer.toText(html('Ann'))).toBe(renderer.toText(html('Ann')));
    const large = `<p>Big</p>${'<p>y</p>'.repeat(10_000)}`;
    expect(renderer.toText(large)).toMatch(/^Big\n\ny\n/);
  });
});
