import { instrumentHtml, isTrackableUrl } from './html-instrument';

const wrap = (href: string) => `T(${href})`;
const rewriteLink = (href: string) => (isTrackableUrl(href) ? wrap(href) : null);

describe('instrumentHtml', () => {
  it('rewrites http(s) links and keeps everything else byte-for-byte', () => {
    const html = `<p>Hi <a class="btn" href="https://example.com/a?x=1&amp;y=2">go</a> <a href='mailto:a@b.c'>mail</a> <a href="#top">top</a> <a href="tel:+1">call</a></p>`;
    const out = instrumentHtml(html, { rewriteLink });
    expect(out).toBe(`<p>Hi <a class="btn" href="T(https://example.com/a?x=1&amp;y=2)">go</a> <a href='mailto:a@b.c'>mail</a> <a href="#top">top</a> <a href="tel:+1">call</a></p>`);
  });

  it('ignores links in comments, scripts and attribute text', () => {
    const html = `<!-- <a href="https://c.example">x</a> --><script>var s='<a href="https://s.example">';</script><img alt='<a href="https://i.example">'><a HREF=https://u.example/p>u</a>`;
    const out = instrumentHtml(html, { rewriteLink });
    expect(out).toContain('<!-- <a href="https://c.example">x</a> -->');
    expect(out).toContain(`var s='<a href="https://s.example">';`);
    expect(out).toContain(`<img alt='<a href="https://i.example">'>`);
    expect(out).toContain('<a href="T(https://u.example/p)">u</a>');
  });

  it('skips links marked data-no-track and non-http schemes', () => {
    const html = `<a href="https://a.example" data-no-track>a</a><a href="javascript:alert(1)">j</a><a href="/relative">r</a>`;
    expect(instrumentHtml(html, { rewriteLink })).toBe(html);
  });

  it('inserts before </body>, or appends without one', () => {
    expect(instrumentHtml('<html><body><p>x</p></body></html>', { beforeBodyEnd: '<img src="p">' })).toBe('<html><body><p>x</p><img src="p"></body></html>');
    expect(instrumentHtml('<p>x</p>', { beforeBodyEnd: '<img src="p">' })).toBe('<p>x</p><img src="p">');
  });

  it('escapes rewritten attribute values', () => {
    const out = instrumentHtml(`<a title='say "hi"' href="https://a.example">a</a>`, { rewriteLink: () => 'https://t.example/?a=1&b="2"' });
    expect(out).toBe('<a title="say &quot;hi&quot;" href="https://t.example/?a=1&amp;b=&quot;2&quot;">a</a>');
  });
});
