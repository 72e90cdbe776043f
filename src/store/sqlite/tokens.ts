import { TOKEN_COLUMNS, type TokenRow, toTokenRecord } from '../shared/rows.js'
import type { NewToken, TokenRecord, TokenRecords } from '../tokens.js'
import type { SqliteDatabase } from './database.js'

const sqliteTime = (milliseconds: number) => new Date(milliseconds)

export class SqliteTokens implements TokenRecords {
  private readonly statements

  constructor(private readonly database: SqliteDatabase) {
    const { db } = database
    this.statements = {
      insert: db.prepare(
        'INSERT INTO tokens (hash, subject, scopes, name, created_at, expires_at) VALUES (@hash, @subject, @scopes, @name, @createdAt, @expiresAt)',
      ),
      insertFirst: db.prepare(
        'INSERT INTO tokens (hash, subject, scopes, name, created_at, expires_at) SELECT @hash, @subject, @scopes, @name, @createdAt, @expiresAt WHERE NOT EXISTS (SELECT 1 FROM tokens)',
      ),
      find: db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = ?`),
      list: db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY id`),
      revoke: db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    }
  }

  private params(token: NewToken) {
    return {
      hash: token.hash,
      subject: token.subject,
      scopes: token.scopes.join(' '),
      name: token.name,
      createdAt: token.createdAt?.getTime() ?? Date.now(),
      expiresAt: token.expiresAt?.getTime() ?? null,
    }
  }

  create(token: NewToken): Promise<number> {
    return this.database.run(() => Number(this.statements.insert.run(this.params(token)).lastInsertRowid))
  }

  createFirst(token: NewToken): Promise<number | null> {
    return this.database.run(() => {
      const result = this.statements.insertFirst.run(this.params(token))
      return result.changes === 1 ? Number(result.lastInsertRowid) : null
    })
  }

  findByHash(hash: string): Promise<TokenRecord | null> {
    return this.database.run(() => {
      const row = this.statements.find.get(hash) as TokenRow<number> | undefined
      return row === undefined ? null : toTokenRecord(row, sqliteTime)
    })
  }

  list(): Promise<TokenRecord[]> {
    return this.database.run(() => (this.statements.list.all() as TokenRow<number>[]).map((row) => toTokenRecord(row, sqliteTime)))
  }

  revoke(id: number): Promise<boolean> {
    return this.database.run(() => this.statements.revoke.run(Date.now(), id).changes === 1)
  }
}
