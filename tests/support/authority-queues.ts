/** Every queue that can wait on the authority (the workflow states only it moves on): a home-desk card each, shown even when empty. */
export const AUTHORITY_QUEUES: string[] = [
  '账号注册待审核',
  '密码重置待审核',
  '使用登记待审核',
  '首次登记待审核',
  '变更登记待审核',
  '施工告知待受理',
  '报检待分派',
  '自助服务申请待审核',
  '简易申报待受理',
  '简易申报待办结',
  '企业信息变更待审核',
  '单位类型变更待审核',
  '整改待验证',
];
