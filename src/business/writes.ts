/** A piece record, resolved to ids and checked, waiting to be written. */
export interface PieceRecordWrite {
  employeeId: string;
  processId: string;
  orderId: string;
  quantity: number;
  /** The price shown in the preview; confirming refuses if the process's price has changed since. */
  unitPriceCents: number;
  workDate: string;
}

/** A new order, checked, waiting to be written; its number is assigned when it is written. */
export interface OrderWrite {
  customer: string;
  styleId: string;
  quantity: number;
  dueDate: string;
  note: string;
  timeZone: string;
}
