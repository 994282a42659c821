// Icons drawn inline, so they show on a machine without an emoji font and take the text's colour.
// Each sits in a button that carries its label, so the drawing itself is hidden from screen readers.
function Icon({ d }: { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

export const TrashIcon = () => <Icon d="M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14M10 11v6M14 11v6" />;
export const PencilIcon = () => <Icon d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" />;
export const DownloadIcon = () => <Icon d="M12 4v11M7 10l5 5 5-5M5 20h14" />;
export const MenuIcon = () => <Icon d="M4 7h16M4 12h16M4 17h16" />;
export const CloseIcon = () => <Icon d="M6 6l12 12M18 6L6 18" />;
export const ThumbUpIcon = () => (
  <Icon d="M7 11v9H4v-9h3zM7 11l4-8c1.5 0 2.5 1 2.5 2.5V9h5a2 2 0 0 1 2 2.3l-1.2 7A2 2 0 0 1 17.3 20H7" />
);
export const ThumbDownIcon = () => (
  <Icon d="M17 13V4h3v9h-3zM17 13l-4 8c-1.5 0-2.5-1-2.5-2.5V15h-5a2 2 0 0 1-2-2.3l1.2-7A2 2 0 0 1 6.7 4H17" />
);
export const RetryIcon = () => <Icon d="M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5" />;
