import { html } from '@codemirror/lang-html';
import { type Diagnostic, linter, lintGutter } from '@codemirror/lint';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useMemo, useRef } from 'react';
import { checkLiquid } from '../pages/templates/liquid-preview';
import { ImageUpload } from './ImageUpload';

/** Marks the line of a Liquid syntax error in the editor (gutter, underline, message on hover). */
const liquidLinter = linter(
  (view): Diagnostic[] => {
    const problem = checkLiquid('body', view.state.doc.toString());
    if (!problem) return [];
    const line = view.state.doc.line(Math.min(Math.max(problem.line ?? 1, 1), view.state.doc.lines));
    return [{ from: line.from, to: Math.max(line.to, line.from), severity: 'error', message: problem.message }];
  },
  { delay: 250 },
);

// No active-line tint: on it the default highlighting's green (#085) falls below 4.5:1 contrast.
const BASIC_SETUP = { foldGutter: false, highlightActiveLine: false, highlightActiveLineGutter: false };

/** Puts `text` in place of the selection (at the cursor when nothing is selected) and selects past it. */
export function insertAtCursor(view: EditorView, text: string): void {
  view.dispatch(view.state.replaceSelection(text));
  view.focus();
}

/**
 * The HTML + Liquid body editor of templates and campaigns: CodeMirror with HTML highlighting and
 * the Liquid error marked on its line. `label` is the editor's accessible name. `imageUpload`
 * adds "Insert image" (components/ImageUpload.tsx), whose `<img>` lands at the cursor.
 */
export default function HtmlLiquidEditor({
  value,
  onChange,
  label,
  height = '380px',
  readOnly = false,
  imageUpload = false,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  height?: string;
  readOnly?: boolean;
  imageUpload?: boolean;
}) {
  const view = useRef<EditorView | null>(null);
  // indentWithTab off: Tab moves the focus on rather than indenting, so the editor is no keyboard trap.
  // Memoised: a new array on every render would reconfigure the editor at each keystroke.
  const extensions = useMemo(() => [html(), EditorView.contentAttributes.of({ 'aria-label': label }), EditorView.lineWrapping, liquidLinter, lintGutter()], [label]);
  return (
    <>
      {imageUpload && (
        <div className="toolbar">
          <ImageUpload disabled={readOnly} onInsert={(tag) => (view.current ? insertAtCursor(view.current, tag) : onChange(value + tag))} />
        </div>
      )}
      <div className="editor">
        <CodeMirror
          value={value}
          height={height}
          extensions={extensions}
          onChange={onChange}
          onCreateEditor={(created) => (view.current = created)}
          basicSetup={BASIC_SETUP}
          indentWithTab={false}
          readOnly={readOnly}
          editable={!readOnly}
        />
      </div>
    </>
  );
}
