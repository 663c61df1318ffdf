select * from t where a = ? and b = 'it''s ?' -- c
 and c = $$?$$