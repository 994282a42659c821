// The labels a confirmed write's result is shown with on its card, one set per UI language: the
// business domain answers field names (order_no, work_date), which mean nothing to a person.
import type { ResultFields } from "./action-outcome.ts";

export const RESULT_FIELDS_ZH: ResultFields = {
  labels: new Map([
    ["order_no", "订单号"],
    ["customer", "客户"],
    ["employee", "员工"],
    ["process", "工序"],
    ["quantity", "数量"],
    ["amount", "金额（元）"],
    ["work_date", "日期"],
    ["due_date", "交货日期"],
  ]),
  separator: "，",
};

export const RESULT_FIELDS_EN: ResultFields = {
  labels: new Map([
    ["order_no", "order no."],
    ["customer", "customer"],
    ["employee", "employee"],
    ["process", "process"],
    ["quantity", "quantity"],
    ["amount", "amount (yuan)"],
    ["work_date", "date"],
    ["due_date", "due date"],
  ]),
  separator: ", ",
};
