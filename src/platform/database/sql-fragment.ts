/**
 * Parameterised SQL without hand-numbered placeholders:
 *
 *   const where = sql`c.project_id = ${projectId} AND ${condition}`;   // condition: a Fragment
 *   await db.query(where.text, where.values);                          // `$1`, `$2`, … in order
 *
 * An interpolated value becomes a bind parameter; an interpolated Fragment is spliced in and its
 * parameters renumbered, so fragments compose to any depth. `raw` is for trusted SQL text only
 * (keywords, operators chosen from a closed list), never for input.
 */
export class Fragment {
  /** strings.length === values.length + 1 (the shape of a template literal, flattened). */
  private constructor(
    readonly strings: readonly string[],
    readonly params: readonly unknown[],
  ) {}

  static of(strings: readonly string[], values: readonly unknown[]): Fragment {
    const outStrings: string[] = [strings[0]];
    const outParams: unknown[] = [];
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value instanceof Fragment) {
        outStrings[outStrings.length - 1] += value.strings[0];
        for (let j = 0; j < value.params.length; j++) {
          outParams.push(value.params[j]);
          outStrings.push(value.strings[j + 1]);
        }
        outStrings[outStrings.length - 1] += strings[i + 1];
      } else {
        outParams.push(value);
        outStrings.push(strings[i + 1]);
      }
    }
    return new Fragment(outStrings, outParams);
  }

  /** The SQL text with `$<offset+1>`, `$<offset+2>`, …; pass an offset to append to existing parameters. */
  toText(offset = 0): string {
    let text = this.strings[0];
    for (let i = 0; i < this.params.length; i++) text += `$${offset + i + 1}${this.strings[i + 1]}`;
    return text;
  }

  get text(): string {
    return this.toText();
  }

  get values(): unknown[] {
    return [...this.params];
  }

  /** `{text, values}` numbered from `$<offset+1>`. */
  toQuery(offset = 0): { text: string; values: unknown[] } {
    return { text: this.toText(offset), values: this.values };
  }
}

/** Tagged template: values become parameters, nested fragments are spliced in. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Fragment {
  return Fragment.of(strings, values);
}

/** Trusted SQL text as a fragment (no parameters). */
export function raw(text: string): Fragment {
  return Fragment.of([text], []);
}

/** The fragments joined by a separator (e.g. `' AND '`); an empty list gives `empty`. */
export function join(fragments: readonly Fragment[], separator: string): Fragment {
  if (fragments.length === 0) return empty;
  const strings = ['', ...fragments.slice(1).map(() => separator), ''];
  return Fragment.of(strings, fragments);
}

/** A quoted SQL identifier (`"name"`, embedded quotes doubled). */
export function ident(name: string): Fragment {
  return raw(`"${name.replace(/"/g, '""')}"`);
}

export const empty: Fragment = raw('');
