// `npm run check:docs` (part of `npm test`): every relative link in the tracked Markdown files resolves. A link to a
// file must name one that exists; a link with an anchor (`file.md#part`, or `#part` in the same file) must name a
// heading of that Markdown file, slugged as GitHub slugs it. Links to other sites (http:, https:, mailto:, any
// scheme) and anything inside code (fenced blocks, inline code spans) are not checked. Plain Node, no dependencies.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The text with fenced code blocks blanked (each character but a newline becomes a space, so offsets and lines hold). */
export function blankFences(text) {
  const lines = text.split('\n');
  let fence = null; // the opening run (``` or ~~~…) while inside a block
  return lines.map((line) => {
    const run = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (run && run[0] === fence[0] && run.length >= fence.length && /^\s*[`~]+\s*$/.test(line)) fence = null;
      return ' '.repeat(line.length);
    }
    if (run) {
      fence = run;
      return ' '.repeat(line.length);
    }
    return line;
  }).join('\n');
}

/** The text with inline code spans blanked (same length; a span never crosses a blank line). */
export function blankCodeSpans(text) {
  return text.replace(/(`+)((?:(?!\n[ \t]*\n)[\s\S])*?[^`])\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** GitHub's anchor for a heading's text: inline code and links reduced to their text, lowercased, punctuation dropped. */
export function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/`/g, '') // inline code: its text, backticks dropped
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '') // every punctuation mark but `-` (and `_`, which GitHub keeps)
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (duplicates numbered -1, -2…) and explicit ids. */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  const add = (base) => {
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = blankFences(text).split('\n');
  lines.forEach((line, i) => {
    const atx = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) return add(slug(atx[2]));
    // A setext heading: a line of text underlined with = (or -, which tables and lists never look like here).
    const previous = lines[i - 1];
    if (i > 0 && previous.trim() && !/^\s*([|>*+-]|\d+\.)/.test(previous)
      && (/^ {0,3}=+\s*$/.test(line) || /^ {0,3}-+\s*$/.test(line))) add(slug(previous));
  });
  for (const [, id] of text.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** The relative links of a Markdown file: `{ line, text, target }`, code left out. */
export function linksOf(text) {
  const visible = blankCodeSpans(blankFences(text));
  const links = [];
  const pattern = /!?\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
  for (const match of visible.matchAll(pattern)) {
    const target = match[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:, any scheme
    const line = visible.slice(0, match.index).split('\n').length;
    links.push({ line, text: text.slice(match.index, match.index + match[0].length), target });
  }
  return links;
}

function main() {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  const anchorCache = new Map();
  const anchorsIn = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchorCache.get(file);
  };
  const broken = [];
  let checked = 0;
  for (const file of files) {
    const path = join(root, file);
    if (!existsSync(path)) continue; // deleted in the work tree, not yet in the index
    for (const { line, text, target } of linksOf(readFileSync(path, 'utf8'))) {
      checked++;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart === '' ? path
        : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(path), pathPart);
      const where = `${file}:${line}: ${text.replace(/\s*\n\s*/g, ' ')}`;
      if (!existsSync(resolved)) {
        broken.push(`${where}: no such file ${relative(root, resolved) || '.'}`);
        continue;
      }
      if (anchor === null || !/\.(md|markdown)$/i.test(resolved) || statSync(resolved).isDirectory()) continue;
      if (!anchorsIn(resolved).has(anchor)) broken.push(`${where}: no heading #${anchor} in ${relative(root, resolved)}`);
    }
  }
  for (const line of broken) console.error(line);
  if (broken.length) {
    console.error(`docs: ${broken.length} broken of ${checked} links checked`);
    process.exit(1);
  }
  console.log(`docs: ${checked} links checked`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
