// What a new workshop starts with besides its boss: two empty knowledge bases for its own documents
// and questions, and a short guide telling the boss what to do first, in a base of its own so that
// the boss may delete it once read. The shipped decision trees need nothing: every workshop sees them.

/** The empty knowledge bases a new workshop starts with. */
export const STARTING_KNOWLEDGE_BASES = [
  { name: "车间资料", description: "本车间的文档：制度、工艺要求、设备说明等。", type: "document" },
  { name: "常见问题", description: "本车间的常见问题和标准答案。", type: "faq" },
] as const;

/** The knowledge base that holds the guide. */
export const GUIDE_KNOWLEDGE_BASE = {
  name: "Weft 使用指南",
  description: "新工作坊的第一步。读完可以删除。",
  type: "document",
} as const;

/** The guide's file name in its knowledge base. */
export const FIRST_STEPS_FILENAME = "第一步.md";

/**
 * The guide, in Chinese (the workshops' language) with a short English part. Every step it names
 * is there in the product; `test/e2e/people.test.ts` walks them.
 */
export const FIRST_STEPS_GUIDE = `# 第一步：开始使用 Weft

工作坊建好了，你是它的老板。做完下面几步，员工就能在手机上登录 Weft，查自己的计件和工资，问车间的资料。

## 1. 给员工开账号

点右上角的“设置”，在“人员”里点“添加人员”，填姓名、用户名，角色选“员工”，再点“添加”。不填密码时，Weft 会给出一个设置密码的链接：24 小时内有效，只能用一次，只显示这一次。复制后用微信或短信发给他，他打开链接自己设密码，再用用户名登录。

员工忘了密码：在“人员”里找到他，点“重置密码”，把新链接发给他。有人离开了：点“停用”，他的登录、API 密钥和已连接的应用立刻失效，他的记录都留着；点“启用”可以恢复。

## 2. 把账号关联到员工档案

计件记录和工资记在员工档案上。添加人员或编辑人员时，在“员工档案”里选他的档案；还没有档案的，选“新建员工档案”，Weft 用他的姓名和下一个工号建一份。关联以后，他问“我这个月做了多少件”“我这个月的工资是多少”，看到的就是自己的记录；还没关联的员工会被告知先找老板关联。

## 3. 放进车间的资料

“车间资料”知识库和“常见问题”知识库现在是空的。放进车间制度、工艺要求、设备说明和常见问答以后，大家提问时 Weft 会从里面找答案并注明出处。在“设置”的“知识库文件”里选知识库、上传文件（PDF、Word、Excel、CSV、文本、图片），读取完成后就能搜到；程序也可以用 API 密钥调用 REST 接口 POST /api/knowledge-bases/:id/documents。

## 4. 遇到机器或质量问题

直接描述问题，例如“衣服跳针怎么办”，Weft 会一步步问清情况，再给出判断。

## 员工怎么用

用老板给的用户名和自己设的密码登录。改密码在“设置”里的“密码”。

## First steps (English)

Your workshop is ready and you are its boss. In Settings → People, add each person (name, username, role); without a password Weft gives you a one-time link, valid for 24 hours, to send them so they set their own. Link each person to their employee record (or let Weft make one with their name), so that "my pieces this month" shows their own records. "Reset password" gives a new link; "Deactivate" ends someone's sign-in, keys and connected apps at once and keeps their records. The 车间资料 and 常见问题 knowledge bases are empty until you upload your documents and questions.
`;
