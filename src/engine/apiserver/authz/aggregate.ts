// The text of an aggregate of errors, as k8s.io/apimachinery/pkg/util/errors prints it.

/**
 * aggregateMessage is utilerrors.NewAggregate(errs).Error(): one error alone as it is; several deduplicated, in
 * order, joined by ", " inside brackets (one left after deduplication loses the brackets); none is "".
 * See staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go (aggregate.Error).
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0]!;
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
