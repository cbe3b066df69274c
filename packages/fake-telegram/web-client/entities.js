// Message text with its entities, as Telegram draws it: the text is cut wherever an entity starts
// or ends, and each piece is wrapped in the elements of every entity that covers it.

const TAGS = {
  bold: "strong",
  italic: "em",
  underline: "u",
  strikethrough: "s",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  expandable_blockquote: "blockquote",
};

function safeUrl(url) {
  return /^(https?|tg):/i.test(url) ? url : "#";
}

function wrap(entity, text, child) {
  let element;
  if (entity.type === "text_link" || entity.type === "url") {
    element = document.createElement("a");
    const target =
      entity.type === "url" ? text.slice(entity.offset, entity.offset + entity.length) : entity.url;
    element.href = safeUrl(/^[a-z]+:/i.test(target) ? target : `https://${target}`);
    element.target = "_blank";
    element.rel = "noopener noreferrer";
  } else {
    element = document.createElement(TAGS[entity.type] ?? "span");
  }
  element.className = `entity-${entity.type}`;
  element.append(child);
  return element;
}

/** A fragment with `text` drawn with its `entities` (offsets in UTF-16 units, as in the Bot API). */
export function renderText(text, entities = []) {
  const fragment = document.createDocumentFragment();
  const cuts = new Set([0, text.length]);
  for (const e of entities) {
    cuts.add(e.offset);
    cuts.add(e.offset + e.length);
  }
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i], points[i + 1]];
    let node = document.createTextNode(text.slice(start, end));
    const covering = entities.filter((e) => e.offset <= start && e.offset + e.length >= end);
    for (const entity of covering.reverse()) node = wrap(entity, text, node);
    fragment.append(node);
  }
  return fragment;
}
