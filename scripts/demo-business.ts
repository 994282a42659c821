import { sqlQuote as quote } from "./sql.ts";

/**
 * Demo business records for the two demo workshops: styles, processes with prices, employees
 * (张三 among them; 李娟 and 张敏 are the staff logins), orders, adjustments, and piece records for
 * the three months up to today plus March, so that "张三这个月做了多少件" and "三月工资" have
 * answers. Every row has a fixed id and is inserted with INSERT OR IGNORE: loading again never
 * changes or deletes what a user added or edited, and only adds the days that have passed since.
 */

interface DemoWorkshop {
  tenantId: string;
  prefix: string;
  styles: { id: string; code: string; name: string; processes: [string, number][] }[];
  employees: { id: string; no: string; name: string; userId?: string; leftMonthsAgo?: number; works: string[] }[];
  orders: {
    id: string;
    seq: number;
    customer: string;
    styleId: string;
    quantity: number;
    dueInDays: number;
    /** Days before the first load that the order was placed: 0 is the moment of loading. */
    placedDaysAgo: number;
    status: string;
    note: string;
  }[];
}

const WORKSHOPS: DemoWorkshop[] = [
  {
    tenantId: "t-jinxiu",
    prefix: "jx",
    styles: [
      {
        id: "st-jx-a01",
        code: "A01",
        name: "男式衬衫",
        processes: [
          ["裁剪", 30],
          ["合肩缝", 50],
          ["上领子", 80],
          ["上袖子", 70],
          ["锁眼", 20],
          ["钉扣", 15],
          ["整烫", 40],
        ],
      },
      {
        id: "st-jx-b02",
        code: "B02",
        name: "女式连衣裙",
        processes: [
          ["裁剪", 40],
          ["拼接", 90],
          ["上拉链", 60],
          ["锁边", 35],
          ["整烫", 50],
        ],
      },
    ],
    employees: [
      { id: "e-jx-zhangsan", no: "001", name: "张三", works: ["st-jx-a01:上领子", "st-jx-a01:合肩缝"] },
      { id: "e-jx-lijuan", no: "002", name: "李娟", userId: "u-staff", works: ["st-jx-a01:上袖子", "st-jx-b02:拼接"] },
      { id: "e-jx-zhangmin", no: "003", name: "张敏", userId: "u-staff2", works: ["st-jx-b02:上拉链", "st-jx-b02:锁边"] },
      { id: "e-jx-wangfang", no: "004", name: "王芳", works: ["st-jx-a01:锁眼", "st-jx-a01:钉扣"] },
      { id: "e-jx-liuqiang", no: "005", name: "刘强", works: ["st-jx-a01:裁剪", "st-jx-b02:裁剪"] },
      { id: "e-jx-zhaoli", no: "006", name: "赵丽", works: ["st-jx-a01:整烫", "st-jx-b02:整烫"] },
      { id: "e-jx-chenjing", no: "007", name: "陈静", leftMonthsAgo: 1, works: ["st-jx-a01:上袖子"] },
    ],
    orders: [
      {
        id: "o-jx-1",
        seq: 1,
        customer: "优衣美",
        styleId: "st-jx-a01",
        quantity: 6000,
        dueInDays: 20,
        placedDaysAgo: 50,
        status: "in_production",
        note: "白色，纯棉",
      },
      {
        id: "o-jx-2",
        seq: 2,
        customer: "海澜",
        styleId: "st-jx-b02",
        // More than the demo's four months of B02 pieces, so the order is not shown finished twice over.
        quantity: 8000,
        dueInDays: 35,
        placedDaysAgo: 45,
        status: "in_production",
        note: "碎花雪纺",
      },
      {
        id: "o-jx-3",
        seq: 3,
        customer: "森马",
        styleId: "st-jx-a01",
        quantity: 500,
        dueInDays: -40,
        placedDaysAgo: 100,
        status: "completed",
        note: "",
      },
      {
        id: "o-jx-4",
        seq: 4,
        customer: "太平鸟",
        styleId: "st-jx-b02",
        quantity: 300,
        dueInDays: 50,
        placedDaysAgo: 0,
        status: "pending",
        note: "藏青色",
      },
      {
        id: "o-jx-5",
        seq: 5,
        customer: "美特斯",
        styleId: "st-jx-a01",
        quantity: 1000,
        dueInDays: 10,
        placedDaysAgo: 20,
        status: "cancelled",
        note: "客户取消",
      },
    ],
  },
  {
    tenantId: "t-other",
    prefix: "hm",
    styles: [
      {
        id: "st-hm-c01",
        code: "C01",
        name: "男式西裤",
        processes: [
          ["裁剪", 35],
          ["上腰头", 95],
          ["上领子", 85],
          ["锁边", 30],
        ],
      },
    ],
    employees: [
      { id: "e-hm-zhangsan", no: "001", name: "张三", works: ["st-hm-c01:上腰头"] },
      { id: "e-hm-zhoumei", no: "002", name: "周梅", works: ["st-hm-c01:锁边", "st-hm-c01:裁剪"] },
    ],
    orders: [
      {
        id: "o-hm-1",
        seq: 1,
        customer: "报喜鸟",
        styleId: "st-hm-c01",
        quantity: 4000,
        dueInDays: 25,
        placedDaysAgo: 40,
        status: "in_production",
        note: "",
      },
    ],
  },
];

/** A small deterministic hash, so every load makes the same quantities for the same day. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function shanghaiToday(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

function shiftDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function shiftMonths(month: string, months: number): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + months, 1));
  return d.toISOString().slice(0, 7);
}

/** The months with demo piece records: this one, the two before, and the latest March. */
function demoMonths(today: string): string[] {
  const current = today.slice(0, 7);
  const months = [shiftMonths(current, -2), shiftMonths(current, -1), current];
  const year = Number(today.slice(0, 4));
  const march = `${Number(today.slice(5, 7)) >= 3 ? year : year - 1}-03`;
  if (!months.includes(march)) months.unshift(march);
  return months;
}

const processId = (prefix: string, styleId: string, name: string) =>
  `p-${prefix}-${styleId.slice(-3)}-${hash(name).toString(36)}`;

/**
 * Idempotent statements (INSERT OR IGNORE with fixed ids) for the demo business records, by
 * workshop id: each runs on the database that workshop lives on.
 */
export function demoBusinessStatements(now: Date = new Date()): Map<string, string[]> {
  const today = shanghaiToday(now);
  const byWorkshop = new Map<string, string[]>();
  for (const w of WORKSHOPS) {
    const statements: string[] = [];
    byWorkshop.set(w.tenantId, statements);
    for (const s of w.styles) {
      statements.push(
        `INSERT OR IGNORE INTO styles (id, tenant_id, code, name) VALUES (${quote(s.id)}, ${quote(w.tenantId)}, ${quote(s.code)}, ${quote(s.name)});`,
      );
      // Set up before any demo order was placed (an order counts the processes it was planned with).
      const setUp = `${shiftDays(today, -365)}T02:00:00.000Z`;
      s.processes.forEach(([name, cents], i) => {
        statements.push(
          `INSERT OR IGNORE INTO processes (id, tenant_id, style_id, name, unit_price_cents, sort_order, created_at) VALUES (${quote(processId(w.prefix, s.id, name))}, ${quote(w.tenantId)}, ${quote(s.id)}, ${quote(name)}, ${cents}, ${i + 1}, ${quote(setUp)});`,
        );
      });
    }
    for (const e of w.employees) {
      const left = e.leftMonthsAgo === undefined ? null : `${shiftMonths(today.slice(0, 7), -e.leftMonthsAgo)}-15`;
      statements.push(
        `INSERT OR IGNORE INTO employees (id, tenant_id, person_id, name, employee_no, phone, status, left_on) VALUES (${quote(e.id)}, ${quote(w.tenantId)}, ${e.userId ? quote(e.userId) : "NULL"}, ${quote(e.name)}, ${quote(e.no)}, ${quote(`1380000${String(hash(e.id) % 10000).padStart(4, "0")}`)}, ${left ? "'left'" : "'active'"}, ${left ? quote(left) : "NULL"});`,
      );
    }
    for (const o of w.orders) {
      // Placed on different days, so "本月新增的订单" has an answer that differs from "本月到期的订单";
      // stored as D1 stores created_at (UTC), 10:00 in Shanghai on the day, or the moment of loading.
      const placed = o.placedDaysAgo === 0 ? now.toISOString() : `${shiftDays(today, -o.placedDaysAgo)}T02:00:00.000Z`;
      statements.push(
        `INSERT OR IGNORE INTO orders (id, tenant_id, order_no, customer, style_id, quantity, due_date, status, note, created_at) VALUES (${quote(o.id)}, ${quote(w.tenantId)}, ${quote(`${today.slice(0, 4)}-${String(o.seq).padStart(3, "0")}`)}, ${quote(o.customer)}, ${quote(o.styleId)}, ${o.quantity}, ${quote(shiftDays(today, o.dueInDays))}, ${quote(o.status)}, ${quote(o.note)}, ${quote(placed)});`,
      );
    }
    const orderFor = (styleId: string, month: string) => {
      const open = w.orders.find((o) => o.styleId === styleId && o.status === "in_production");
      const done = w.orders.find((o) => o.styleId === styleId && o.status === "completed");
      return (month < shiftMonths(today.slice(0, 7), -1) && done) || open || w.orders[0];
    };
    const rows: string[] = [];
    for (const month of demoMonths(today)) {
      for (let day = 1; day <= 31; day++) {
        const date = `${month}-${String(day).padStart(2, "0")}`;
        // shiftDays normalises an impossible day (02-30) into the next month, which is skipped.
        if (date > today || shiftDays(date, 0) !== date) continue;
        // Sundays off, except a month's first day, so "this month" has records from its first day.
        if (day !== 1 && new Date(`${date}T00:00:00Z`).getUTCDay() === 0) continue;
        for (const e of w.employees) {
          if (e.leftMonthsAgo !== undefined && date >= `${shiftMonths(today.slice(0, 7), -e.leftMonthsAgo)}-15`) continue;
          const h = hash(`${e.id}:${date}`);
          const [styleId, process] = (e.works[h % e.works.length] as string).split(":") as [string, string];
          const price = w.styles.find((s) => s.id === styleId)?.processes.find(([n]) => n === process)?.[1] ?? 0;
          const order = orderFor(styleId, month);
          rows.push(
            `(${quote(`pr-${w.prefix}-${e.id.slice(5)}-${date}`)}, ${quote(w.tenantId)}, ${quote(e.id)}, ${quote(processId(w.prefix, styleId, process))}, ${quote(order?.id ?? "")}, ${40 + (h % 160)}, ${price}, ${quote(date)}, 'demo')`,
          );
        }
      }
      const adjustments: [string, string, number, string][] = [
        [w.employees[0]?.id ?? "", "allowance", 10000, "全勤奖"],
        [w.employees[1]?.id ?? "", "allowance", 5000, "餐补"],
        [w.employees[0]?.id ?? "", "deduction", 20000, "预支"],
      ];
      adjustments.forEach(([employeeId, kind, cents, reason], i) => {
        statements.push(
          `INSERT OR IGNORE INTO payroll_adjustments (id, tenant_id, employee_id, month, kind, amount_cents, reason) VALUES (${quote(`adj-${w.prefix}-${month}-${i + 1}`)}, ${quote(w.tenantId)}, ${quote(employeeId)}, ${quote(month)}, ${quote(kind)}, ${cents}, ${quote(reason)});`,
        );
      });
    }
    for (let i = 0; i < rows.length; i += 100) {
      statements.push(
        `INSERT OR IGNORE INTO piece_records (id, tenant_id, employee_id, process_id, order_id, quantity, unit_price_cents, work_date, entered_by) VALUES ${rows.slice(i, i + 100).join(", ")};`,
      );
    }
  }
  return byWorkshop;
}
