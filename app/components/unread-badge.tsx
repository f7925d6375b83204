/** "3 unread messages" beside a link: the number is seen, the words are heard. */
export default function UnreadBadge({ count }: { count: number }) {
  const shown = count > 99 ? "99+" : String(count);
  return (
    <>
      <span aria-hidden="true" className="ml-1 inline-flex min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs leading-5 font-semibold text-white" data-testid="unread-badge">
        {shown}
      </span>
      <span className="sr-only">
        , {count} unread {count === 1 ? "message" : "messages"}
      </span>
    </>
  );
}

