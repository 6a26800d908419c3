// A small, strict XML parser for test assertions: throws on anything that is not well-formed
// (unclosed or mismatched tags, a raw "<" or "&" in text, bad entities, duplicate attributes).

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, where: number): string {
  if (raw.includes("<")) throw new Error(`raw "<" at ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, body: string) => {
    if (!match.endsWith(";")) throw new Error(`unterminated entity at ${where}`);
    if (body in ENTITIES) return ENTITIES[body]!;
    const numeric = /^#(\d+)$/.exec(body) ?? /^#x([0-9a-fA-F]+)$/.exec(body);
    if (!numeric) throw new Error(`unknown entity &${body}; at ${where}`);
    return String.fromCodePoint(parseInt(numeric[1]!, body.startsWith("#x") ? 16 : 10));
  });
}

export function parseXml(source: string): XmlElement {
  let pos = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(source);
  if (declaration) pos = declaration[0].length;
  const skipSpace = () => {
    while (pos < source.length && /\s/.test(source[pos]!)) pos++;
  };
  const parseElement = (): XmlElement => {
    if (source[pos] !== "<") throw new Error(`expected "<" at ${pos}`);
    pos++;
    const name = NAME.exec(source.slice(pos))?.[0];
    if (!name) throw new Error(`bad tag name at ${pos}`);
    pos += name.length;
    const element: XmlElement = { name, attributes: {}, children: [], text: "" };
    for (;;) {
      skipSpace();
      if (source.startsWith("/>", pos)) {
        pos += 2;
        return element;
      }
      if (source[pos] === ">") {
        pos++;
        break;
      }
      const attribute = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(source.slice(pos));
      if (!attribute) throw new Error(`bad attribute at ${pos}`);
      if (attribute[1]! in element.attributes) throw new Error(`duplicate attribute ${attribute[1]}`);
      element.attributes[attribute[1]!] = decode(attribute[3] ?? attribute[4] ?? "", pos);
      pos += attribute[0].length;
    }
    for (;;) {
      const next = source.indexOf("<", pos);
      if (next === -1) throw new Error(`unclosed <${name}>`);
      element.text += decode(source.slice(pos, next), pos);
      pos = next;
      if (source.startsWith("</", pos)) {
        const close = new RegExp(`^</${name.replace(/[.]/g, "\\.")}\\s*>`).exec(source.slice(pos));
        if (!close) throw new Error(`mismatched closing tag at ${pos}, expected </${name}>`);
        pos += close[0].length;
        return element;
      }
      if (source.startsWith("<!", pos) || source.startsWith("<?", pos)) throw new Error(`unsupported markup at ${pos}`);
      element.children.push(parseElement());
    }
  };
  const root = parseElement();
  skipSpace();
  if (pos !== source.length) throw new Error(`content after the root element at ${pos}`);
  return root;
}
