/**
 * The synonym groups a workshop starts with: words people in a garment workshop use for the same
 * thing, so that a question asked one way finds a guide written the other way. A workshop replaces
 * them with `PUT /api/synonyms`. The first word of a group is its canonical form.
 */
export const DEFAULT_SYNONYMS: readonly (readonly string[])[] = [
  ["新建", "创建", "添加", "录入", "新增"],
  ["工资", "薪水", "薪资", "工钱"],
  ["计件", "件数"],
  ["单价", "工价"],
  ["设置", "设定", "填写"],
  ["修改", "更改", "编辑", "改成", "改为", "改一下", "更正", "改正"],
  ["删除", "删掉", "移除"],
  ["查询", "查看", "查找"],
  ["员工", "工人", "职工"],
  ["离职", "辞职"],
  ["交货日期", "交期", "交货期"],
  ["取消", "作废"],
  ["导出", "下载"],
  ["返工", "返修"],
  ["抽检", "抽查"],
  ["补贴", "津贴"],
  ["扣款", "罚款"],
  ["登录", "登陆"],
  ["密码", "口令"],
  ["手机", "移动端"],
  ["跳针", "跳线"],
];
