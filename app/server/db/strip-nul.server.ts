// PostgreSQL text cannot hold U+0000 (it rejects the whole statement with 22021), while SQLite stores it.
// No value the app reads from a visitor means a NUL: a search, a payment id or a tracking id with one
// matches nothing either way. So on PostgreSQL every string parameter loses its NULs before it is sent
// (and a compiled-once query's parameters on both engines, in dialect.server.ts);
// the inquiry form strips them at validation on both engines, so what is stored does not differ.
import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from "kysely";

const NUL = /\u0000/g;

/** The value without U+0000 when it is a string holding one; any other value as it is. */
export function withoutNul(value: unknown): unknown {
  return typeof value === "string" && value.includes("\u0000") ? value.replace(NUL, "") : value;
}

class NulStripper extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = withoutNul(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((value) => withoutNul(value) !== value)
      ? { ...node, values: node.values.map(withoutNul) }
      : node;
  }
}

/** Kysely plugin for the PostgreSQL dialect: string parameters are sent without U+0000. */
export class StripNulPlugin implements KyselyPlugin {
  readonly #transformer = new NulStripper();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
