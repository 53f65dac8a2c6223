import {
  getNamedType,
  isLeafType,
  isListType,
  getNullableType,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  getArgumentValues,
} from "graphql";

/**
 * Shopify's published cost rules, applied statically (the "requested" cost): scalars and enums 0,
 * objects 1, connections 2 plus `first`/`last` times their node selection, lists with `first`
 * likewise, `nodes(ids:)` once per id, a mutation 10.
 */
export function requestedCost(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): number {
  const root = operation.operation === "mutation" ? schema.getMutationType()! : schema.getQueryType()!;
  return selectionCost(schema, root, operation.selectionSet, variables, operation.operation === "mutation");
}

function selectionCost(schema: GraphQLSchema, parent: GraphQLCompositeType, selectionSet: SelectionSetNode, variables: Record<string, unknown>, isMutationRoot = false): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === "InlineFragment") {
      const type = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) as GraphQLCompositeType) : parent;
      total += selectionCost(schema, type, selection.selectionSet, variables);
    } else if (selection.kind === "Field") {
      total += fieldCost(schema, parent, selection, variables, isMutationRoot);
    }
  }
  return total;
}

function fieldCost(schema: GraphQLSchema, parent: GraphQLCompositeType, field: FieldNode, variables: Record<string, unknown>, isMutationRoot: boolean): number {
  if (field.name.value.startsWith("__") || !(isObjectType(parent) || isInterfaceType(parent))) return 0;
  const definition = parent.getFields()[field.name.value];
  if (!definition) return 0;
  const named = getNamedType(definition.type);
  if (isLeafType(named) || !isCompositeType(named) || !field.selectionSet) return 0;
  const args = getArgumentValues(definition, field, variables) as { first?: number; last?: number; ids?: unknown[] };
  const child = selectionCost(schema, named, field.selectionSet, variables);
  if (isMutationRoot) return 10 + child;
  if (named.name.endsWith("Connection")) return 2 + (args.first ?? args.last ?? 1) * child;
  if (Array.isArray(args.ids)) return args.ids.length * (1 + child);
  if (isListType(getNullableType(definition.type)) && (args.first ?? args.last)) return (args.first ?? args.last)! * (1 + child);
  return 1 + child;
}
