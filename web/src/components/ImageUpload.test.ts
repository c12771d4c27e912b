import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@uiw/react-codemirror';
import { describe, expect, it } from 'vitest';
import { insertAtCursor } from './HtmlLiquidEditor';
import { imageTag } from './ImageUpload';

describe('Insert image', () => {
  it('writes an img tag with an empty alt, the URL escaped for the attribute', () => {
    expect(imageTag('https://mail.example.com/uploads/img_1.png')).toBe('<img src="https://mail.example.com/uploads/img_1.png" alt="">');
    expect(imageTag('https://x.test/a?b=1&c="2"')).toBe('<img src="https://x.test/a?b=1&amp;c=&quot;2&quot;" alt="">');
  });

  it('puts the tag at the cursor, or in place of the selection', () => {
    const view = new EditorView({ doc: '<p>Hello</p>\n<p>Bye</p>' });
    view.dispatch({ selection: EditorSelection.cursor(12) });
    insertAtCursor(view, '<img src="u" alt="">');
    expect(view.state.doc.toString()).toBe('<p>Hello</p><img src="u" alt="">\n<p>Bye</p>');
    view.dispatch({ selection: EditorSelection.range(0, 12) });
    insertAtCursor(view, 'X');
    expect(view.state.doc.toString()).toBe('X<img src="u" alt="">\n<p>Bye</p>');
    view.destroy();
  });
});
