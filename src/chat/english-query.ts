/**
 * A workshop's guide is written in Chinese, and no embedding the local stack has matches English
 * to it, so an English question would find nothing. The words a workshop's English questions are
 * made of are few: a question without Chinese is searched by their Chinese words instead, and the
 * reply quotes the closest Chinese passage (saying so). Search itself is unchanged: this widens
 * only the chat's query.
 */
const TERMS: readonly (readonly [RegExp, string])[] = [
  [/\b(create|add|new|enter)\b/i, "新建"],
  [/\borders?\b/i, "订单"],
  [/\b(pieces?|piecework|piece-rate)\b/i, "计件"],
  [/\b(record|register|log)\b/i, "登记"],
  [/\b(wages?|salary|salaries|pay|payroll|payslips?)\b/i, "工资"],
  [/\bprocess(es)?\b/i, "工序"],
  [/\b(unit )?prices?\b/i, "单价"],
  [/\b(employees?|staff|workers?)\b/i, "员工"],
  [/\b(set|setting|settings)\b/i, "设置"],
  [/\b(forgot|forget|forgotten)\b/i, "忘记"],
  [/\bpasswords?\b/i, "密码"],
  [/\b(log ?in|sign ?in)\b/i, "登录"],
  [/\baccounts?\b/i, "账号"],
  [/\b(permissions?|roles?)\b/i, "权限"],
  [/\b(delete|remove)\b/i, "删除"],
  [/\b(edit|change|modify|correct|fix)\b/i, "修改"],
  [/\bcancel\b/i, "取消"],
  [/\bexport\b/i, "导出"],
  [/\b(resign|resigns|quit|quits|leaves?)\b/i, "离职"],
  [/\b(due dates?|deadlines?|delivery)\b/i, "交货日期"],
  [/\b(defects?|quality)\b/i, "质量"],
  [/\brework\b/i, "返工"],
  [/\b(allowances?|subsidy|subsidies)\b/i, "补贴"],
  [/\bdeductions?\b/i, "扣款"],
  [/\b(styles?|models?)\b/i, "款式"],
  [/\b(phone|mobile)\b/i, "手机"],
];

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * The query the chat searches with: the message, or for a question without Chinese the Chinese of
 * the workshop words it holds (its English words cannot match a Chinese passage, only blur the
 * score), or the message as it is when it holds none.
 */
export function searchQuery(message: string): string {
  if (CJK.test(message)) return message;
  const chinese = TERMS.filter(([english]) => english.test(message)).map(([, word]) => word);
  return chinese.length ? chinese.join(" ") : message;
}
