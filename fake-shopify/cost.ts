import {
  defaultFieldResolver,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { adminSchema } from "./versions";

type Fragments = Record<string, FragmentDefinitionNode>;

interface Walk {
  schema: GraphQLSchema;
  variables: Record<string, unknown>;
  fragments: Fragments;
}

/**
 * Shopify's published cost rules, applied statically (the "requested" cost): scalars and enums 0,
 * objects 1, an abstract type the most expensive of its possible selections, connections 2 plus
 * `first`/`last` times one element of `nodes`/`edges` (pageInfo once), lists with `first`
 * likewise, `nodes(ids:)` once per id, a mutation 10.
 *
 * A list selected without `first` (`order { refunds { id } }` returns every refund) is counted
 * as one element here, while the actual cost counts the elements returned, so its actual cost can
 * exceed the requested one. That is our modelling choice: Shopify's documents do not say how
 * such a list is priced.
 */
export function requestedCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  fragments: Fragments = {},
): number {
  const root = operation.operation === "mutation" ? schema.getMutationType()! : schema.getQueryType()!;
  return selectionCost({ schema, variables, fragments }, root, operation.selectionSet, operation.operation === "mutation");
}

/** The requested cost of a query against the published schema, for checking cost constants. Throws on a document that does not parse. */
export function requestedQueryCost(query: string, variables: Record<string, unknown> = {}, operationName?: string): number {
  const document = parse(query);
  const operation = getOperationAST(document, operationName);
  if (!operation) throw new Error("no operation to price (several operations need an operationName)");
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return requestedCost(adminSchema(), operation, variables, fragments);
}

/** An abstract type costs the most expensive of the concrete types its fragments name. */
function selectionCost(walk: Walk, parent: GraphQLCompositeType, selectionSet: SelectionSetNode, isMutationRoot = false): number {
  if (!isAbstractType(parent)) return concreteCost(walk, parent, parent, selectionSet, isMutationRoot);
  const candidates = new Set<GraphQLObjectType>();
  collectTypeConditions(walk, parent, selectionSet, candidates);
  if (!candidates.size) return concreteCost(walk, parent, parent, selectionSet, false);
  return Math.max(...[...candidates].map((type) => concreteCost(walk, type, type, selectionSet, false)));
}

function collectTypeConditions(walk: Walk, parent: GraphQLCompositeType, selectionSet: SelectionSetNode, into: Set<GraphQLObjectType>): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) continue;
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments[selection.name.value] : selection;
    if (!fragment) continue;
    const type = fragment.typeCondition ? walk.schema.getType(fragment.typeCondition.name.value) : parent;
    if (isObjectType(type) && isAbstractType(parent) && walk.schema.isSubType(parent, type)) into.add(type);
    collectTypeConditions(walk, parent, fragment.selectionSet, into);
  }
}

/** The cost of a selection when the value is of `runtime` (an object type, or the abstract type when no fragment names one). */
function concreteCost(
  walk: Walk,
  parent: GraphQLCompositeType,
  runtime: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  isMutationRoot: boolean,
): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      total += fieldCost(walk, runtime, selection, isMutationRoot);
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments[selection.name.value] : selection;
    if (!fragment) continue;
    const condition = fragment.typeCondition ? walk.schema.getType(fragment.typeCondition.name.value) : runtime;
    const applies =
      condition === runtime ||
      (isAbstractType(condition) && isObjectType(runtime) && walk.schema.isSubType(condition, runtime)) ||
      (isAbstractType(condition) && condition === parent);
    if (applies) total += concreteCost(walk, parent, runtime, fragment.selectionSet, isMutationRoot);
  }
  return total;
}

function fieldCost(walk: Walk, parent: GraphQLCompositeType, field: FieldNode, isMutationRoot: boolean): number {
  if (field.name.value.startsWith("__") || !(isObjectType(parent) || isInterfaceType(parent))) return 0;
  const definition = parent.getFields()[field.name.value];
  if (!definition || !field.selectionSet) return 0;
  const named = getNamedType(definition.type);
  if (!isCompositeType(named)) return 0;
  const args = getArgumentValues(definition, field, walk.variables) as { first?: number | null; last?: number | null; ids?: unknown[] };
  const size = args.first ?? args.last;
  if (isMutationRoot) return 10 + selectionCost(walk, named, field.selectionSet);
  if (named.name.endsWith("Connection") && isObjectType(named)) return 2 + connectionCost(walk, named, field.selectionSet, size ?? 1);
  const child = selectionCost(walk, named, field.selectionSet);
  if (Array.isArray(args.ids)) return args.ids.length * (1 + child);
  if (isListType(getNullableType(definition.type)) && size != null) return size * (1 + child);
  return 1 + child;
}

/** The elements (`nodes`, `edges`) `size` times; anything else of the connection (pageInfo) once. */
function connectionCost(walk: Walk, connection: GraphQLObjectType, selectionSet: SelectionSetNode, size: number): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments[selection.name.value] : selection;
      if (fragment) total += connectionCost(walk, connection, fragment.selectionSet, size);
      continue;
    }
    const cost = fieldCost(walk, connection, selection, false);
    total += selection.name.value === "nodes" || selection.name.value === "edges" ? size * cost : cost;
  }
  return total;
}

/**
 * A field resolver that adds each composite field's cost, by the same rules, as it resolves:
 * lists count the elements they really return (null ones too, as a null object still costs its
 * point), connections 2, mutations 10. Its total is the actual cost.
 */
export function costCountingResolver(counter: { actual: number }, mutationType: GraphQLObjectType | null | undefined): GraphQLFieldResolver<unknown, unknown> {
  const count = (cost: (value: unknown) => number) => (value: unknown) => {
    counter.actual += cost(value);
    return value;
  };
  return (source, args, context, info) => {
    const value = defaultFieldResolver(source, args, context, info);
    const named = getNamedType(info.returnType);
    if (!isCompositeType(named)) return value;
    const list = isListType(getNullableType(info.returnType));
    const add = count((resolved) =>
      info.parentType === mutationType ? 10 : named.name.endsWith("Connection") && !list ? 2 : list ? (Array.isArray(resolved) ? resolved.length : 0) : 1,
    );
    return value instanceof Promise ? value.then(add) : add(value);
  };
}
