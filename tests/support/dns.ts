// A real DNS server on 127.0.0.1 (UDP) answering A and AAAA questions from a table, for tests that must
// not ask the internet's DNS: the app is pointed at it with DNS_SERVERS=127.0.0.1:<port>.
import dgram from "node:dgram";
import { isIPv4, isIPv6 } from "node:net";

export interface DnsStub {
  /** The DNS_SERVERS value that reaches this server. */
  server: string;
  /** Sets the addresses a name resolves to ([] for "no such name"). */
  set: (name: string, addresses: string[]) => void;
  /** How many questions about a name arrived (any type). */
  asked: (name: string) => number;
  stop: () => Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

function readName(message: Buffer, start: number): { name: string; end: number } {
  const labels: string[] = [];
  let offset = start;
  while (message[offset]! > 0) {
    const length = message[offset]!;
    labels.push(message.toString("latin1", offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { name: labels.join(".").toLowerCase(), end: offset + 1 };
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}

export async function startDnsStub(): Promise<DnsStub> {
  const records = new Map<string, string[]>();
  const questions = new Map<string, number>();
  const socket = dgram.createSocket("udp4");
  socket.on("message", (query, peer) => {
    if (query.length < 12) return;
    const { name, end } = readName(query, 12);
    const type = query.readUInt16BE(end);
    questions.set(name, (questions.get(name) ?? 0) + 1);
    const known = records.get(name);
    const answers = (known ?? []).filter((address) =>
      type === TYPE_A ? isIPv4(address) : type === TYPE_AAAA ? isIPv6(address) : false,
    );
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(0x8180 | (known && known.length > 0 ? 0 : 3), 2); // a response; NXDOMAIN for unknown names
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const question = query.subarray(12, end + 4);
    const records_ = answers.map((address) => {
      const data = isIPv4(address) ? Buffer.from(address.split(".").map(Number)) : ipv6Bytes(address);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(isIPv4(address) ? TYPE_A : TYPE_AAAA, 2);
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(data.length, 10);
      return Buffer.concat([record, data]);
    });
    socket.send(Buffer.concat([header, question, ...records_]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    set: (name, addresses) => records.set(name.toLowerCase(), addresses),
    asked: (name) => questions.get(name.toLowerCase()) ?? 0,
    stop: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
