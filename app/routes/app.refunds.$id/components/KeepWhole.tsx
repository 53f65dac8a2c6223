/** Global ids, webhook ids and contract paths in running text: each stays on one line, never broken mid-string. */
const ID = /(gid:\/\/\S+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\$[a-z_]+(?:\.[A-Za-z_[\]0-9*]+)+)/g;

export function KeepWhole({ text }: { text: string }) {
  return (
    <>
      {text.split(ID).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} style={{ whiteSpace: "nowrap" }}>
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}
