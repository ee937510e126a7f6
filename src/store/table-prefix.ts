import {
  IdentifierNode,
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SchemableIdentifierNode,
  type UnknownRow,
} from 'kysely';

class PrefixTransformer extends OperationNodeTransformer {
  constructor(
    private readonly prefix: string,
    private readonly tables: ReadonlySet<string>,
  ) {
    super();
  }

  /** Forgets the nodes a transform that threw was inside of. */
  reset(): void {
    this.nodeStack.length = 0;
  }

  protected override transformSchemableIdentifier(node: SchemableIdentifierNode): SchemableIdentifierNode {
    const transformed = super.transformSchemableIdentifier(node);
    const name = transformed.identifier.name;
    if (transformed.schema || !this.tables.has(name)) return transformed;
    return { ...transformed, identifier: IdentifierNode.create(this.prefix + name) };
  }
}

/**
 * Adds the store's table prefix to its own table names, so that queries are written with
 * logical names and typed by the `Database` interface, and never touch a host's tables.
 */
export class TablePrefixPlugin implements KyselyPlugin {
  readonly #transformer: PrefixTransformer;

  constructor(prefix: string, tables: readonly string[]) {
    this.#transformer = new PrefixTransformer(prefix, new Set(tables));
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    try {
      return this.#transformer.transformNode(args.node);
    } finally {
      // Kysely's transformer keeps a stack of the nodes it is inside; a transform that throws
      // (a tree too deep for the call stack) would leave it full, keeping that query alive for
      // the calendar's lifetime. Transforms are synchronous: no other query is in between.
      this.#transformer.reset();
    }
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
